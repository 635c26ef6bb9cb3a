package io.durablebatch.job;

/** What a flow transition does when its pattern matches the exit code of the node it leaves. */
public enum TransitionKind {
    /** Continue with the target node. */
    NEXT,
    /** End the job COMPLETED. */
    END,
    /** End the job FAILED: a restart takes the same route again unless the input changed. */
    FAIL,
    /** End the job STOPPED: a restart continues with the target node. */
    STOP;

    /** Whether this transition names a target node. */
    public boolean hasTarget() {
        return this == NEXT || this == STOP;
    }
}
