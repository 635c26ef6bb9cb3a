package io.durablebatch.listener;

/**
 * Called for each chunk transaction of a chunk step (and for each call of a tasklet, its unit of
 * work). A chunk's items are read before its transaction begins; the transaction then processes and
 * writes them and records the step's progress.
 * <ul>
 * <li>{@code beforeChunk} runs <em>inside</em> the chunk's transaction, before the items are
 * processed: what it writes to the database commits or rolls back with the chunk. If it throws, the
 * chunk rolls back and the step fails.
 * <li>{@code afterChunk} runs after the transaction committed, outside any transaction. An exception
 * it throws is logged and changes nothing: the chunk stays committed and the step goes on.
 * <li>{@code onChunkError} runs after the transaction rolled back, outside any transaction, with the
 * failure: for each rolled-back try, so a transient failure that is retried calls it, and so does a
 * writer's skippable failure whose chunk is then scanned item by item (the scan's probes do not) and
 * the failure that fails the step. An exception it throws is logged and added to the failure as
 * suppressed; it changes nothing.
 * </ul>
 * A retried chunk calls {@code beforeChunk} again in its new transaction.
 */
public interface ChunkListener extends BatchListener {

    /** At the start of the chunk's transaction, inside it. */
    default void beforeChunk(ChunkEvent chunk) {
    }

    /** After the chunk's transaction committed; {@code chunk.committed()} includes the chunk. */
    default void afterChunk(ChunkEvent chunk) {
    }

    /** After a try of the chunk's transaction rolled back because of {@code failure}. */
    default void onChunkError(ChunkEvent chunk, Throwable failure) {
    }
}
