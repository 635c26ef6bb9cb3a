package io.durablebatch.execution;

import java.time.Instant;
import java.util.Optional;

/** Snapshot of one attempt to run a step within a job execution. */
public record StepExecution(StepExecutionId id, JobExecutionId jobExecutionId, JobInstanceId jobInstanceId,
        StepName stepName, ExecutionStatus status, ExitStatus exitStatus, Optional<ExecutionFailure> failure,
        Optional<Checkpoint> checkpoint, StepCounters counters, Instant createdAt, Optional<Instant> startedAt,
        Optional<Instant> endedAt, Instant lastUpdated, ExecutionVersion version) {
}
