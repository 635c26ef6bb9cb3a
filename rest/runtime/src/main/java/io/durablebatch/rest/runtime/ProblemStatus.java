package io.durablebatch.rest.runtime;

import io.durablebatch.repository.RepositoryError;

/**
 * The HTTP status of every {@link RepositoryError}: 404 for what does not exist, 409 for refusals
 * and conflicts (the request was understood; the state does not allow it), 412 for a stale version
 * (the {@code If-Match} of the request), 422 for values the repository refuses, 503 for transient
 * storage failures (retry), 500 only for what the caller cannot cause. The switch has no default:
 * a new code does not compile until it has a status.
 */
final class ProblemStatus {

    private ProblemStatus() {
    }

    static int of(RepositoryError error) {
        return switch (error) {
            case JOB_INSTANCE_NOT_FOUND, JOB_EXECUTION_NOT_FOUND, STEP_EXECUTION_NOT_FOUND, JOB_NOT_DEFINED,
                    PARTITION_PLAN_NOT_FOUND, PARTITION_NOT_FOUND ->
                404;
            case VERSION_CONFLICT -> 412;
            case ILLEGAL_TRANSITION, INSTANCE_COMPLETE, INSTANCE_ABANDONED, EXECUTION_ACTIVE, EXECUTION_UNKNOWN,
                    EXECUTION_NOT_ACTIVE, DEFINITION_INCOMPATIBLE, DEFINITION_JOB_MISMATCH, EXECUTION_NOT_RECOVERABLE,
                    ALREADY_RECOVERED, EXECUTION_LEASE_LIVE, EXECUTION_SUPERSEDED, OPERATION_CONFLICT,
                    START_LIMIT_EXCEEDED, FLOW_DECISION_TARGET_STARTED, FLOW_PLAN_MISMATCH, PARTITION_PLAN_EXISTS,
                    PARTITION_PARENT_NOT_ACTIVE, PARTITION_NOT_ASSIGNABLE, PARTITION_NOT_ASSIGNED,
                    PARTITION_WORKER_NOT_ELIGIBLE, PARTITION_WORKER_MISMATCH, PARTITION_WORKER_ACTIVE,
                    PARTITION_CHILD_ACTIVE, PARTITION_SOURCE_NOT_RESTARTABLE, PARTITION_SOURCE_MISMATCH,
                    STOP_ALREADY_REQUESTED, OWNER_MISMATCH, OWNER_NOT_CLAIMABLE, HOLD_EXISTS, RETENTION_PLAN_STALE ->
                409;
            case PARTITION_PLAN_EMPTY, PARTITION_PLAN_TOO_LARGE, PARTITION_KEY_DUPLICATE, PARAMETER_OUT_OF_DOMAIN -> 422;
            case STORAGE_TRANSIENT -> 503;
            case TRANSACTION_REQUIRED, STORAGE_FAILURE -> 500;
        };
    }
}
