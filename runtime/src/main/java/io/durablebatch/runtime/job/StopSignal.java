package io.durablebatch.runtime.job;

/**
 * Whether a running execution should stop at its next chunk boundary: the step runners ask at every
 * chunk commit and between steps. Raised by a durable stop request (seen at a chunk commit or by the control poller) or by
 * the shutdown of this process.
 */
interface StopSignal {

    boolean stopRequested();

    /** Raises the signal: the execution stops at its next chunk boundary. */
    void requestStop();

    /**
     * A step of the execution failed because the repository was out of reach for longer than its
     * retries (a transient failure): the failure is the owner's loss, not the job's, and the
     * owner-loss restart policy applies to it.
     */
    default void repositoryLost(Throwable failure) {
    }

    /**
     * Whether the stop is this process leaving (it shuts down) rather than the execution being asked
     * to stop: a partition worker then hands its partition back to the plan for another process.
     */
    default boolean leaving() {
        return false;
    }
}
