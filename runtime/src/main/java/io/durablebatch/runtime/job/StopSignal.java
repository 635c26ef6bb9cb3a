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
     * Why the execution may no longer commit, if its lease may have run out: the last renewal the
     * database confirmed is older than the lease. Answered from this process's clock, without the
     * database: a unit of work does not commit then (its commit throws a transient failure, tried
     * again once a renewal is confirmed, or given up to the restart policy).
     */
    default java.util.Optional<String> leaseLapsed() {
        return java.util.Optional.empty();
    }

    /**
     * Whether the stop is this process leaving (it shuts down) rather than the execution being asked
     * to stop: a partition worker then hands its partition back to the plan for another process.
     */
    default boolean leaving() {
        return false;
    }
}
