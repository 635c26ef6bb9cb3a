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
    /**
     * The execution's lease is live: its owner showed a sign of life within the lease duration.
     * Recover it once the lease has run out, or declare the owner dead in the request.
     */
    EXECUTION_LEASE_LIVE,
    /**
     * A later attempt of the execution's instance exists: restarting or abandoning an attempt acts on
     * its instance, so only the instance's latest attempt is accepted.
     */
    EXECUTION_SUPERSEDED,
    /** No job of that name is defined in this application: the operator cannot launch or restart it. */
    JOB_NOT_DEFINED,
    /** The operation id was already used by the same actor for a different request. */
    OPERATION_CONFLICT,
    /**
     * A parameter of a new instance key or attempt is outside the values the repository holds
     * exactly ({@code io.durablebatch.execution.ParameterDomain}); the message names it. Nothing
     * was written.
     */
    PARAMETER_OUT_OF_DOMAIN,
    /** A transient database failure (serialization, deadlock, lost connection): retry the unit of work. */
    STORAGE_TRANSIENT,
    /** An unexpected database failure. */
    STORAGE_FAILURE,

    // Flows (plan format 2)

    /** The flow node already consumed its start limit across the instance's executions. */
    START_LIMIT_EXCEEDED,
    /** The decision's target node already started in this job execution: decisions precede their target. */
    FLOW_DECISION_TARGET_STARTED,
    /** The decision's plan fingerprint is not the one of the definition the job execution runs. */
    FLOW_PLAN_MISMATCH,

    // Partitions

    /** A partition plan must have at least one entry. */
    PARTITION_PLAN_EMPTY,
    /** The partition plan has more entries than {@code quarkus.durable-batch.partitions.max-plan-size}. */
    PARTITION_PLAN_TOO_LARGE,
    /** Two entries of one partition plan have the same key. */
    PARTITION_KEY_DUPLICATE,
    /** The parent step already has a partition plan: a plan is created once, whole. */
    PARTITION_PLAN_EXISTS,
    /** The parent step has no partition plan. */
    PARTITION_PLAN_NOT_FOUND,
    /** The parent step is not STARTING or STARTED, so its plan cannot be created or handed out. */
    PARTITION_PARENT_NOT_ACTIVE,
    /** No partition has this id. */
    PARTITION_NOT_FOUND,
    /** The partition is already assigned or finished: only unassigned work is assigned. */
    PARTITION_NOT_ASSIGNABLE,
    /** The partition has no worker yet, so there is no result to complete it with. */
    PARTITION_NOT_ASSIGNED,
    /**
     * The worker is not a STARTING or STARTED step of the parent's job execution (other than the
     * parent), or it already runs a partition of this plan.
     */
    PARTITION_WORKER_NOT_ELIGIBLE,
    /** The worker is not the one assigned to the partition. */
    PARTITION_WORKER_MISMATCH,
    /** The worker has not ended (it is active or UNKNOWN), so it has no result yet. */
    PARTITION_WORKER_ACTIVE,
    /** A partition of the plan is unassigned or still running: the parent cannot be aggregated yet. */
    PARTITION_CHILD_ACTIVE,
    /** The source plan's job execution is not STOPPED or FAILED, so its plan cannot be restarted. */
    PARTITION_SOURCE_NOT_RESTARTABLE,
    /** The restart's source and target parent steps do not belong to the same job instance. */
    PARTITION_SOURCE_MISMATCH,

    // Operator control and retention
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
