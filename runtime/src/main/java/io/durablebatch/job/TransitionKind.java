package io.durablebatch.job;

/** What a flow transition does when its pattern matches the exit code of the node it leaves. */
public enum TransitionKind {
    /** Continue with the target node. */
    NEXT,
    /** End the job COMPLETED. */
    END,
    /** End the job FAILED: a restart takes the same route again unless the input changed. */
    FAIL,
    /**
     * End the job STOPPED. Its target, if any, is the restart position: the node a restart begins
     * at, which may be any node (the stopping one, or one before it, to run again); without one a
     * restart begins at the start node. Either way the nodes it reaches that completed in an
     * earlier execution are skipped on their recorded exit codes, unless they allow a start if complete.
     */
    STOP;

    /** Whether this transition must name a target node (a STOP may name its restart position). */
    public boolean hasTarget() {
        return this == NEXT;
    }

    /** Whether this transition may name a target node. */
    public boolean mayHaveTarget() {
        return this == NEXT || this == STOP;
    }
}
