package io.durablebatch.item;

import java.util.Optional;

import io.durablebatch.execution.Checkpoint;

/**
 * A writer whose output lives outside the chunk's transaction (a file, typically), so it cannot be
 * rolled back with the chunk.
 * <p>
 * The kernel opens it with the checkpoint committed by the step's previous attempt, asks for
 * {@link #checkpoint()} after each {@link #write} and commits it in the chunk's transaction, next to
 * the reader's. Reopening from that checkpoint discards whatever a chunk that did not commit wrote,
 * so the output holds each item exactly once after a crash, a rollback or a restart.
 */
public interface RestartableItemWriter<T> extends ItemWriter<T>, AutoCloseable {

    /** Opens the writer at the start, or at the position a previous attempt committed. */
    void open(Optional<Checkpoint> checkpoint) throws Exception;

    /** The position just after the last item written by {@link #write}. */
    Checkpoint checkpoint();

    @Override
    default void close() throws Exception {
    }
}
