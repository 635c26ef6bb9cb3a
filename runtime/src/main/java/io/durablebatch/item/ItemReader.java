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

    /** The total number of items, when the reader knows it cheaply (used for progress ETA). */
    default OptionalLong size() {
        return OptionalLong.empty();
    }

    @Override
    default void close() throws Exception {
    }
}
