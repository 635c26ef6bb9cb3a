package io.durablebatch.repository;

import java.time.Instant;

import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.OperationId;
import io.durablebatch.execution.ReasonCode;

/**
 * The append-only record of one recovery: who decided what, why, from which observed state, and
 * the version the execution had after it. It outlives a purge of the execution.
 */
public record RecoveryDecision(JobExecutionId jobExecutionId, JobInstanceId jobInstanceId, OperationId operationId,
        ActorRef actor, ReasonCode reason, RecoveryResolution resolution, ExecutionStatus observedStatus,
        ExecutionVersion observedVersion, ExecutionVersion resultingVersion, int resolvedSteps, Instant decidedAt) {
}
