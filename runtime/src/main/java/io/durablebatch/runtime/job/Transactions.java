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
        return inNew(0, work);
    }

    /**
     * Runs {@code work} in a new transaction of {@code timeout} seconds (0: the transaction
     * manager's default): committed if it returns, rolled back if it throws.
     */
    static <T> T inNew(int timeout, Callable<T> work) throws Exception {
        try {
            return timeout > 0 ? QuarkusTransaction.requiringNew().timeout(timeout).call(work)
                    : QuarkusTransaction.requiringNew().call(work);
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
        Optional<T> result;
        try {
            result = work.get();
        } catch (RuntimeException | Error failure) {
            rollBackAfter(failure);
            throw failure;
        }
        if (result.isPresent()) {
            QuarkusTransaction.commit();
        } else {
            QuarkusTransaction.rollback();
        }
        return result;
    }

    /**
     * Runs {@code work} in a new transaction that is always rolled back: a probe without effects.
     * Must be called outside any transaction.
     */
    static void probe(Callable<?> work) throws Exception {
        QuarkusTransaction.begin();
        try {
            work.call();
        } catch (Exception | Error failure) {
            rollBackAfter(failure);
            throw failure;
        }
        QuarkusTransaction.rollback();
    }

    /**
     * Rolls back after the work failed; a rollback that fails too (on the same lost connection) is
     * kept as suppressed, so the work's failure, which says what happened, is what the caller sees.
     */
    private static void rollBackAfter(Throwable failure) {
        try {
            QuarkusTransaction.rollback();
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
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
