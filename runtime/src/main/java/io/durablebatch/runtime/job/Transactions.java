package io.durablebatch.runtime.job;

import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.narayana.jta.QuarkusTransactionException;

/** New JTA transactions for units of work that throw the exception of the work itself. */
final class Transactions {

    private Transactions() {
    }

    /** Runs {@code work} in a new transaction: committed if it returns, rolled back if it throws. */
    static <T> T inNew(Callable<T> work) throws Exception {
        try {
            return QuarkusTransaction.requiringNew().call(work);
        } catch (QuarkusTransactionException e) {
            throw unwrap(e);
        }
    }

    /**
     * Runs {@code work} in a new transaction that commits only if the work returns a result; an
     * empty result rolls everything it did back. Must be called outside any transaction.
     */
    static <T> Optional<T> commitIfPresent(Supplier<Optional<T>> work) {
        QuarkusTransaction.begin();
        boolean commit = false;
        try {
            Optional<T> result = work.get();
            commit = result.isPresent();
            return result;
        } finally {
            if (commit) {
                QuarkusTransaction.commit();
            } else {
                QuarkusTransaction.rollback();
            }
        }
    }

    /**
     * Runs {@code work} in a new transaction that is always rolled back: a probe without effects.
     * Must be called outside any transaction.
     */
    static void probe(Callable<?> work) throws Exception {
        QuarkusTransaction.begin();
        try {
            work.call();
        } finally {
            QuarkusTransaction.rollback();
        }
    }

    private static Exception unwrap(QuarkusTransactionException e) {
        // checked exceptions and Errors of the work arrive wrapped; unchecked ones and commit failures do not
        if (e.getCause() instanceof Error error) {
            throw error;
        }
        return e.getCause() instanceof Exception cause && !(e.getCause() instanceof RuntimeException) ? cause : e;
    }
}
