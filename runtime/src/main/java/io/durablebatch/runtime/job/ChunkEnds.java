package io.durablebatch.runtime.job;

import java.time.Duration;

import io.durablebatch.job.CheckpointAlgorithm;

/**
 * Where a chunk step attempt's chunks end: after the commit interval's items or the time limit,
 * whichever comes first, or where its {@link CheckpointAlgorithm} says. Nothing here touches the
 * database: a policy adds no statement to a chunk.
 */
final class ChunkEnds {

    /** One item per chunk: the chunks that follow a retry with rollback. */
    static final ChunkEnds ONE = new ChunkEnds(1, null, null);

    private final int commitInterval;
    /** The time limit in nanoseconds, 0 for none. */
    private final long timeLimit;
    private final CheckpointAlgorithm algorithm;

    ChunkEnds(int commitInterval, Duration timeLimit, CheckpointAlgorithm algorithm) {
        this.commitInterval = commitInterval;
        this.timeLimit = timeLimit == null ? 0 : timeLimit.toNanos();
        this.algorithm = algorithm;
    }

    /** A first guess of the chunk's size. */
    int capacity() {
        return Math.min(commitInterval, 1024);
    }

    /** Whether the chunk's start time is needed. */
    boolean timed() {
        return timeLimit > 0;
    }

    /**
     * Before the chunk's first read: the algorithm begins its checkpoint.
     *
     * @return the chunk's transaction timeout in seconds, 0 for the default
     */
    int begin() throws Exception {
        if (algorithm == null) {
            return 0;
        }
        int timeout = algorithm.checkpointTimeout();
        if (timeout < 0) {
            throw new IllegalStateException("checkpoint algorithm " + algorithm + " returned a negative checkpoint timeout: "
                    + timeout + " s");
        }
        algorithm.beginCheckpoint();
        return timeout;
    }

    /**
     * After an item was read: whether the chunk ends with it; {@code began} is when the chunk began ({@link System#nanoTime}).
     */
    boolean reached(int items, long began) throws Exception {
        if (algorithm != null) {
            return algorithm.isReadyToCheckpoint();
        }
        return items >= commitInterval || timeLimit > 0 && System.nanoTime() - began >= timeLimit;
    }

    /** After the chunk committed. */
    void end() throws Exception {
        if (algorithm != null) {
            algorithm.endCheckpoint();
        }
    }
}
