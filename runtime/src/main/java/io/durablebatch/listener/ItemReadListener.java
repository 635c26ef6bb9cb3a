package io.durablebatch.listener;

/**
 * Called around each {@code read()} of a chunk step's reader. A chunk's items are read before its
 * transaction begins, so every callback runs outside any transaction, on the step's thread:
 * {@code beforeRead} before each call of the reader (including the last one, which finds the end of
 * the input), {@code afterRead} with each item it returned (not for the end of the input), and
 * {@code onReadError} with each exception it threw, before the step's skip policy decides whether
 * to skip it ({@link SkipListener#onSkipInRead} follows, in the chunk's transaction) or to fail the
 * step.
 * <p>
 * Each item is read once: a chunk whose transaction is retried or committed again after a writer's
 * skippable failure keeps its items and reads none again. A restart reopens the reader after the
 * last committed chunk, so it calls these listeners for the items it reads again (those of the
 * chunk that failed) and for the following ones, never for committed items.
 * <p>
 * A listener that throws fails the step with its exception (its chunk's listeners hear of it in
 * {@link ChunkListener#onChunkError}, with 0 items): the exception is never skipped, and one thrown
 * by {@code onReadError} carries the reader's failure as suppressed. The first listener that throws
 * stops the calls of that callback.
 */
public interface ItemReadListener extends BatchListener {

    /** Before each call of the reader, outside any transaction. */
    default void beforeRead() {
    }

    /** After the reader returned {@code item}, outside any transaction. */
    default void afterRead(Object item) {
    }

    /** After the reader threw {@code failure}, before it is skipped or fails the step. */
    default void onReadError(Exception failure) {
    }
}
