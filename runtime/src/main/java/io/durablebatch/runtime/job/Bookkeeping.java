package io.durablebatch.runtime.job;

import java.time.Duration;
import java.util.function.Supplier;

import org.jboss.logging.Logger;

import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.runtime.sql.TransientFailures;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * Runs the kernel's own records (a step's or a job's start and end, a stop) each in a new
 * transaction that is tried again while it may still pass: after a version conflict with a
 * concurrent observer (the work re-reads the version), and after a transient failure (a lost
 * connection, a restarted database, a serialization failure or a lock timeout), with backoff, for
 * as long as the execution's lease would last. Past that, the execution is given up to recovery:
 * its lease runs out and any node recovers it.
 */
final class Bookkeeping {

    private static final Logger LOG = Logger.getLogger(Bookkeeping.class);
    private static final int VERSION_CONFLICTS = 3;
    private static final long FIRST_BACKOFF_MILLIS = 50;
    private static final long MAX_BACKOFF_MILLIS = 2000;

    private final Duration budget;

    Bookkeeping(Duration budget) {
        this.budget = budget;
    }

    /** Runs {@code record} in a new transaction, again while a failure may pass; throws the last failure after that. */
    <T> T record(String what, Supplier<T> record) {
        return record(what, record, record);
    }

    /**
     * Runs {@code first} in a new transaction and, while a failure may pass, {@code again} in another:
     * a try after a failed commit must first look for what an unacknowledged earlier try recorded.
     */
    <T> T record(String what, Supplier<T> first, Supplier<T> again) {
        long deadline = System.nanoTime() + budget.toNanos();
        long backoff = FIRST_BACKOFF_MILLIS;
        int conflicts = 0;
        Supplier<T> record = first;
        while (true) {
            try {
                return QuarkusTransaction.requiringNew().call(record::get);
            } catch (RuntimeException e) {
                boolean conflict = e instanceof RepositoryException repository
                        && repository.error() == RepositoryError.VERSION_CONFLICT && ++conflicts < VERSION_CONFLICTS;
                boolean retry = conflict
                        || TransientFailures.isTransient(e) && System.nanoTime() + backoff * 1_000_000 < deadline;
                if (!retry) {
                    throw e;
                }
                record = again;
                if (!conflict) {
                    LOG.debugf("Recording %s failed transiently, trying again in %d ms: %s", what, backoff, e.getMessage());
                    sleep(backoff);
                    backoff = Math.min(MAX_BACKOFF_MILLIS, backoff * 2);
                }
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while recording", e);
        }
    }
}
