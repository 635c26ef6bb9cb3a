package io.durablebatch.job;

/**
 * Decides where a chunk step's chunks end, in place of its commit interval (Jakarta Batch's custom
 * checkpoint policy). The kernel gives each step attempt its own instance
 * ({@code chunk(..).checkpointAlgorithm(context -> ...)}) and, for each chunk: asks
 * {@link #checkpointTimeout()} and calls {@link #beginCheckpoint()} before the chunk's first read,
 * asks {@link #isReadyToCheckpoint()} after each item it read (an item skipped as unreadable
 * included), and calls {@link #endCheckpoint()} once the chunk committed. The end of the input ends
 * the chunk too. Every call is outside any transaction, on the step's thread.
 */
public interface CheckpointAlgorithm {

    /**
     * The timeout, in seconds, of the next chunk's transaction; 0 keeps the transaction manager's
     * default.
     */
    default int checkpointTimeout() throws Exception {
        return 0;
    }

    /** Before the chunk's first read. */
    default void beginCheckpoint() throws Exception {
    }

    /** After each item of the chunk was read: whether the chunk ends with it. */
    boolean isReadyToCheckpoint() throws Exception;

    /** After the chunk committed. */
    default void endCheckpoint() throws Exception {
    }
}
