package io.durablebatch.runtime.job;

import java.util.Optional;

import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.StepCounters;

/**
 * The state of one step attempt's chunk loop between its chunks, in the way Spring Batch's
 * {@code ChunkTracker} and JBeret's {@code ProcessingInfo} keep theirs: the last committed
 * checkpoint, the skips committed so far, and what rollbacks left to do. After a retry with
 * rollback, the reads of the rolled-back chunk are committed one per chunk, and its rollbacks are
 * counted by the next chunk that commits.
 */
final class ChunkTracker {

    private Optional<Checkpoint> lastCommitted;
    private SkipTally skips;
    /** How many reads are still committed one per chunk, after a retry with rollback. */
    private long oneByOne;
    /** The rollbacks of earlier chunks that no committed chunk counted yet. */
    private long rolledBack;
    /** The rolled-back transactions of the current chunk. */
    private long chunkRollbacks;

    ChunkTracker(Optional<Checkpoint> resumeFrom, SkipTally skips) {
        this.lastCommitted = resumeFrom;
        this.skips = skips;
    }

    /** Where the next chunk ends: after one read while reads are committed one per chunk. */
    ChunkEnds nextEnds(ChunkEnds declared) {
        return oneByOne() ? ChunkEnds.ONE : declared;
    }

    /** Whether the current chunk is one of those committed one read per chunk after a rollback. */
    boolean oneByOne() {
        return oneByOne > 0;
    }

    /** The skips committed so far: each chunk skips on a copy, which its commit makes the new ones. */
    SkipTally skips() {
        return skips;
    }

    Optional<Checkpoint> lastCommitted() {
        return lastCommitted;
    }

    /**
     * The current chunk was read: its transaction's tries begin. (Until then, the rollbacks of the
     * chunk before it are still those a failure counts.)
     */
    void chunkRead() {
        chunkRollbacks = 0;
    }

    /** A transaction of the current chunk rolled back (a failed try, a scan of its writes). */
    void transactionRolledBack() {
        chunkRollbacks++;
    }

    /** The rolled-back transactions of the current chunk so far. */
    long chunkRollbacks() {
        return chunkRollbacks;
    }

    /** The rollbacks before the current chunk that no committed chunk counted yet. */
    long rolledBackBefore() {
        return rolledBack;
    }

    /** A read failure was retried with rollback, before the chunk's transaction began: one rollback. */
    void readRolledBack(long reads) {
        rolledBack++;
        oneByOne = Math.max(oneByOne, reads);
    }

    /** The chunk's transaction rolled back to retry it with rollback: its {@code reads} go one per chunk. */
    void chunkRolledBack(long reads) {
        rolledBack += chunkRollbacks;
        oneByOne = Math.max(oneByOne, reads);
    }

    /** The chunk of {@code reads} reads committed, counting every rollback before it. */
    void committed(long reads, Optional<Checkpoint> checkpoint, SkipTally committedSkips) {
        rolledBack = 0;
        oneByOne = Math.max(0, oneByOne - reads);
        lastCommitted = checkpoint;
        skips = committedSkips;
    }

    /** What a failing attempt adds to its counters: the rollbacks no committed chunk counted. */
    StepCounters uncountedRollbacks() {
        return new StepCounters(0, 0, 0, 0, 0, 0, 0, chunkRollbacks + rolledBack);
    }
}
