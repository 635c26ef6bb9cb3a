package io.durablebatch.repository;

/** Why the repository refused an operation. Each refusal leaves the stored data unchanged. */
public enum RepositoryError {
    /** The call was made outside an active JTA transaction. */
    TRANSACTION_REQUIRED,
    JOB_INSTANCE_NOT_FOUND,
    JOB_EXECUTION_NOT_FOUND,
    STEP_EXECUTION_NOT_FOUND,
    /** The expected version is stale: the record moved since the caller read it. */
    VERSION_CONFLICT,
    /** The lifecycle table does not allow the requested move. */
    ILLEGAL_TRANSITION,
    /** The instance's latest attempt COMPLETED: it can never run again. */
    INSTANCE_COMPLETE,
    /** The instance's latest attempt was ABANDONED: it can never run again. */
    INSTANCE_ABANDONED,
    /** The instance has an active attempt (STARTING, STARTED or STOPPING). */
    EXECUTION_ACTIVE,
    /** The instance's latest attempt is UNKNOWN: only recovery can resolve it. */
    EXECUTION_UNKNOWN,
    /** The job execution is not active, so no step can be started in it. */
    EXECUTION_NOT_ACTIVE,
    /** A restart's definition is neither the checkpoint's one nor reachable by one registered edge. */
    DEFINITION_INCOMPATIBLE,
    /** The upgrade or definition names a different job than the one it is registered for. */
    DEFINITION_JOB_MISMATCH,
    /** Recovery applies only to active or UNKNOWN executions. */
    EXECUTION_NOT_RECOVERABLE,
    /** The execution was already recovered by a different request. */
    ALREADY_RECOVERED,
    /** The operation id was already used for a different request. */
    OPERATION_CONFLICT,
    /** A transient database failure (serialization, deadlock, lost connection): retry the unit of work. */
    STORAGE_TRANSIENT,
    /** An unexpected database failure. */
    STORAGE_FAILURE,
    /** A stop was already requested for the execution: the first request stands. */
    STOP_ALREADY_REQUESTED,
    /**
     * The execution is owned by another {@code OwnerToken}, or has no owner, and the caller is not
     * its owner: a token never takes over an attempt.
     */
    OWNER_MISMATCH,
    /** Only a STARTING execution can be claimed by its owner. */
    OWNER_NOT_CLAIMABLE,
    /** The instance already has its one retention hold. */
    HOLD_EXISTS,
    /**
     * A candidate of the purge plan changed since the survey (new execution, version moved, hold
     * placed, or already purged): nothing was deleted; survey again.
     */
    RETENTION_PLAN_STALE
}
