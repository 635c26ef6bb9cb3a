package io.durablebatch.repository;

import io.durablebatch.execution.ExecutionStatus;

/** What recovery makes of an orphaned or ambiguous execution. */
public enum RecoveryResolution {
    /** The attempt failed; the instance may be restarted from its last checkpoint. */
    FAILED,
    /** The attempt is given up; the instance can never run again. */
    ABANDONED;

    public ExecutionStatus status() {
        return this == FAILED ? ExecutionStatus.FAILED : ExecutionStatus.ABANDONED;
    }
}
