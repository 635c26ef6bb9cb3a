package io.durablebatch.runtime.job;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

import org.jboss.logging.Logger;

import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.runtime.sql.TransientFailures;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * Runs the kernel's own records (a step's or a job's start and end, a stop) each in a new
 * transaction that is tried again while it may still pass, through the kernel's one retry mechanism
 * ({@link UnitOfWorkRetry}): at once after a version conflict with a concurrent observer (the work
 * re-reads the version), up to {@value #VERSION_CONFLICTS} conflicts; with backoff after a transient
 * failure (a lost connection, a restarted database, a serialization failure or a lock timeout), for
 * as long as the execution's lease would last. Past that, the execution is given up to recovery: its
 * lease runs out and any node recovers it.
 */
final class Bookkeeping {

    private static final Logger LOG = Logger.getLogger(Bookkeeping.class);
    private static final int VERSION_CONFLICTS = 3;
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(50);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(2);

    private final UnitOfWorkRetry retry;

    Bookkeeping(Duration budget) {
        this.retry = UnitOfWorkRetry.forBudget(UnitOfWorkRetry.BOOKKEEPING, budget,
                failure -> isConflict(failure) || TransientFailures.isTransient(failure), FIRST_BACKOFF, MAX_BACKOFF,
                Bookkeeping::isConflict, failure -> {
                    // each failed try is logged with what it recorded (Tries)
                });
    }

    /** Runs {@code record} in a new transaction, again while a failure may pass; throws the last failure after that. */
    <T> T record(String what, Supplier<T> record) {
        return record(what, record, record);
    }

    /**
     * Runs {@code first} in a new transaction and, while a failure may pass, {@code again} in another:
     * a try after a failed commit must first look for what an unacknowledged earlier try recorded.
     */
    @SuppressWarnings("unchecked")
    <T> T record(String what, Supplier<T> first, Supplier<T> again) {
        Tries<T> tries = new Tries<>(what, first, again);
        try {
            return (T) retry.call(tries, Object.class);
        } catch (ConflictsExhausted exhausted) {
            throw exhausted.conflict;
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            // the records are suppliers: nothing checked comes out of them
            throw new IllegalStateException("recording " + what + " failed", e);
        }
    }

    private static boolean isConflict(Throwable failure) {
        return failure instanceof RepositoryException repository && repository.error() == RepositoryError.VERSION_CONFLICT;
    }

    /** The tries of one record: the first, then the others; the last conflict allowed ends them. */
    private static final class Tries<T> implements Callable<Object> {
        private final String what;
        private final Supplier<T> first;
        private final Supplier<T> again;
        private int tries;
        private int conflicts;

        Tries(String what, Supplier<T> first, Supplier<T> again) {
            this.what = what;
            this.first = first;
            this.again = again;
        }

        @Override
        public Object call() throws Exception {
            Supplier<T> record = tries++ == 0 ? first : again;
            try {
                return QuarkusTransaction.requiringNew().call(record::get);
            } catch (RuntimeException e) {
                if (isConflict(e) && ++conflicts >= VERSION_CONFLICTS) {
                    throw new ConflictsExhausted((RepositoryException) e);
                }
                LOG.debugf("Recording %s failed (try %d): %s", what, tries, e.getMessage());
                throw e;
            }
        }
    }

    /** The last version conflict a record allows: not retried, thrown as itself. */
    private static final class ConflictsExhausted extends Exception {
        private static final long serialVersionUID = 1L;
        private final transient RepositoryException conflict;

        ConflictsExhausted(RepositoryException conflict) {
            super(null, null, false, false);
            this.conflict = conflict;
        }
    }
}
