package io.durablebatch.item;

import java.util.Optional;
import java.util.OptionalLong;

import io.durablebatch.execution.Checkpoint;

/**
 * Reads the items of a chunk-oriented step one at a time, restartably.
 * <p>
 * The kernel opens the reader with the checkpoint committed by the step's previous attempt (empty
 * on a first run), asks for {@link #checkpoint()} after each chunk's last item and commits it in
 * the chunk's transaction, so a restart reopens the reader exactly after the last committed item.
 */
public interface ItemReader<T> extends AutoCloseable {

    /** Opens the reader at the start, or at the position a previous attempt committed. */
    void open(Optional<Checkpoint> checkpoint) throws Exception;

    /** The next item, or {@code null} at the end of the input. */
    T read() throws Exception;

    /** The position just after the last item returned by {@link #read()}. */
    Checkpoint checkpoint();

    /**
     * The checkpoint the step records when this attempt fails, given the one of its last committed
     * chunk (or the one it resumed; empty if none): by default that one. A restart resumes what it
     * returns, so a reader that keeps state beside its position which must survive a failed attempt
     * (Jakarta Batch's persistent user data) returns that state with the committed position. Asked
     * once, outside any transaction; if it throws, the committed checkpoint is recorded.
     */
    default Optional<Checkpoint> checkpointAtFailure(Optional<Checkpoint> committed) {
        return committed;
    }

    /** The total number of items, when the reader knows it cheaply (used for progress ETA). */
    default OptionalLong size() {
        return OptionalLong.empty();
    }

    @Override
    default void close() throws Exception {
    }
}
