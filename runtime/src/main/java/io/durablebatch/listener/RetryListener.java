package io.durablebatch.listener;

import java.util.List;

import io.durablebatch.context.StepContext;

/**
 * Told of each exception a chunk step retries ({@code chunk(..).retryable(..)}), before the retry,
 * where the exception was caught: a read's outside any transaction, a process's or a write's inside
 * the chunk's transaction, which a retry with rollback then rolls back, taking what the listener
 * wrote to the database with it. Not told of the kernel's own retries of transient database
 * failures. A listener that throws fails the step with its exception, carrying the retried one as
 * suppressed.
 */
public interface RetryListener extends BatchListener {

    /** The reader threw {@code failure}; the read is retried. */
    default void onRetryRead(StepContext step, Exception failure) {
    }

    /** The processor threw {@code failure} for {@code item}; it is retried. */
    default void onRetryProcess(StepContext step, Object item, Exception failure) {
    }

    /** The writer threw {@code failure} writing {@code items}; the write is retried. */
    default void onRetryWrite(StepContext step, List<Object> items, Exception failure) {
    }
}
