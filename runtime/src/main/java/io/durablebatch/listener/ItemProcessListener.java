package io.durablebatch.listener;

/**
 * Called around each item the processor of a chunk step processes, inside the chunk's transaction
 * and after its {@code beforeChunk}: what a listener writes to the database commits or rolls back
 * with the chunk. {@code beforeProcess} before the processor is called, {@code afterProcess} with
 * its result ({@code null} when it filtered the item out), {@code onProcessError} with the exception
 * it threw, before the step's skip policy decides whether to skip the item
 * ({@link SkipListener#onSkipInProcess} follows) or to roll the chunk back and fail the step. A step
 * without a processor calls none of them.
 * <p>
 * The calls belong to one try of the chunk's transaction: a chunk that is tried again (after a
 * transient failure, or committed again without the items its writer refused) processes its items
 * again and calls the listeners again, so an effect outside the transaction belongs in
 * {@link ChunkListener#afterChunk} or in a callback of the transaction's commit. The probes that
 * find the items a writer refuses process nothing and call none of them. A restart processes the
 * items it reads again, with their calls.
 * <p>
 * A listener that throws rolls the chunk back and fails the step (as a {@code beforeChunk} that
 * throws): its exception is never skipped, and one thrown by {@code onProcessError} carries the
 * processor's failure as suppressed. The first listener that throws stops the calls of that
 * callback.
 */
public interface ItemProcessListener extends BatchListener {

    /** Before the processor is given {@code item}, in the chunk's transaction. */
    default void beforeProcess(Object item) {
    }

    /** After the processor turned {@code item} into {@code result}; {@code null} when it filtered the item out. */
    default void afterProcess(Object item, Object result) {
    }

    /** After the processor threw {@code failure} for {@code item}, before it is skipped or fails the chunk. */
    default void onProcessError(Object item, Exception failure) {
    }
}
