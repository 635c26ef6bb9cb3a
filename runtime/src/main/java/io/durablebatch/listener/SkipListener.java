package io.durablebatch.listener;

import java.util.List;

import io.durablebatch.context.StepContext;

/**
 * Told of each skipped item, with the exception that caused the skip. Every callback runs inside
 * the transaction of the chunk the item belonged to, after its {@code beforeChunk}: what a listener
 * writes to the database commits with the chunk, exactly once, or rolls back with it. A chunk whose
 * transaction is tried again (after a transient failure) reports its skips again in the new try, so
 * an effect outside the transaction (a message, a file) belongs in a callback of the transaction's
 * commit ({@code TransactionSynchronizationRegistry}) or in {@link ChunkListener#afterChunk}. A
 * listener that throws rolls the chunk back and fails the step.
 * <p>
 * Unreadable items are reported first, then those the processor refused, in order, then those the
 * writer refused, each found by writing the chunk's items one by one in rolled-back transactions.
 * The kernel's own skip log ({@code quarkus.durable-batch.skips.log}) is such a listener, called
 * before the others.
 */
public interface SkipListener extends BatchListener {

    /** An item could not be read; {@code failure} describes it. */
    default void onSkipInRead(StepContext step, Exception failure) {
    }

    /** The processor refused {@code item} with {@code failure}. */
    default void onSkipInProcess(StepContext step, Object item, Exception failure) {
    }

    /** The writer refused {@code item} (a processor's output) with {@code failure}. */
    default void onSkipInWrite(StepContext step, Object item, Exception failure) {
    }

    /**
     * The writer refused a whole write with {@code failure}, and the step skips it whole
     * ({@code chunk(..).writeSkips(WriteSkips.WHOLE_WRITE)}): none of {@code items} is written. By
     * default each item is told to {@link #onSkipInWrite(StepContext, Object, Exception)}.
     */
    default void onSkipInWrite(StepContext step, List<Object> items, Exception failure) {
        for (Object item : items) {
            onSkipInWrite(step, item, failure);
        }
    }
}
