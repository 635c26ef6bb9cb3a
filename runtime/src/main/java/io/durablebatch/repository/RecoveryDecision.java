package io.durablebatch.repository;

import java.time.Instant;

/**
 * The append-only record of one recovery: who decided what, why, from which observed state, and
 * the version the execution had after it. It outlives a purge of the execution.
 */
public record RecoveryDecision(JobExecutionId jobExecutionId, JobInstanceId jobInstanceId, OperationId operationId,
        ActorRef actor, ReasonCode reason, RecoveryResolution resolution, ExecutionStatus observedStatus,
        ExecutionVersion observedVersion, ExecutionVersion resultingVersion, int resolvedSteps, Instant decidedAt) {
}
