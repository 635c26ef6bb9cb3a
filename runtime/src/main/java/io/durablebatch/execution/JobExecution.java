package io.durablebatch.execution;

import java.time.Instant;
import java.util.Optional;

/**
 * Snapshot of one attempt to run a job instance of the job {@code jobName}. {@code attempt} counts
 * the instance's attempts from one, in creation order.
 */
public record JobExecution(JobExecutionId id, JobInstanceId jobInstanceId, JobName jobName, int attempt, ExecutionStatus status,
        ExitStatus exitStatus, Optional<ExecutionFailure> failure, Optional<DefinitionIdentity> definition,
        ExecutionParameters parameters,
        Instant createdAt, Optional<Instant> startedAt, Optional<Instant> endedAt, Instant lastUpdated,
        ExecutionVersion version) {

    public boolean isRestart() {
        return attempt > 1;
    }
}
