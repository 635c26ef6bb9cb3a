package io.durablebatch.runtime.job;

import io.durablebatch.job.ChunkStep;
import io.durablebatch.job.RetryLimitExceededException;
import io.durablebatch.runtime.sql.TransientFailures;

/**
 * The retries of one chunk step attempt under its {@link ChunkStep.RetryPolicy}: whether an
 * exception of the reader, processor or writer is retried, in place or with the chunk rolled back,
 * and how many retries the attempt made. Transient database failures are not the policy's: the
 * kernel retries the chunk's transaction for those ({@link UnitOfWorkRetry}).
 */
final class ChunkRetries {

    /** What to do with a failure. */
    enum Decision {
        /** Not retried: skipped if skippable, else the step fails. */
        NONE,
        /** The same read, process or write again, in the same transaction. */
        IN_PLACE,
        /** The chunk rolls back; its items are read again and committed one per chunk. */
        ROLLBACK
    }

    /** A retry with rollback: thrown out of the chunk (and its transaction) to the step's loop. */
    static final class RetryWithRollback extends Exception {
        private static final long serialVersionUID = 1L;

        RetryWithRollback(Exception cause) {
            super(cause);
        }
    }

    private final String stepName;
    private final ChunkStep.RetryPolicy policy;
    private int retries;

    ChunkRetries(String stepName, ChunkStep.RetryPolicy policy) {
        this.stepName = stepName;
        this.policy = policy;
    }

    /**
     * How {@code failure} is handled; counts the retry it decides on. While the chunk's items are
     * committed one by one after a rollback ({@code oneByOne}), an exception the step may skip is
     * skipped rather than retried again, as Jakarta Batch wants.
     *
     * @throws RetryLimitExceededException if the retry limit is spent and {@code failure} cannot be
     *         skipped
     */
    Decision decide(Exception failure, boolean oneByOne, SkipTally skips) {
        if (policy.retryable().isEmpty() || TransientFailures.isTransient(failure)
                || !policy.retryable().matches(failure) || oneByOne && skips.isSkippable(failure)) {
            return Decision.NONE;
        }
        if (policy.limit().isPresent() && retries >= policy.limit().getAsInt()) {
            if (skips.isSkippable(failure)) {
                return Decision.NONE;
            }
            throw new RetryLimitExceededException(stepName, policy.limit().getAsInt(), failure);
        }
        retries++;
        return policy.noRollback().matches(failure) ? Decision.IN_PLACE : Decision.ROLLBACK;
    }
}
