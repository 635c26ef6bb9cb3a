package io.durablebatch.repository;

import java.time.Instant;

import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepExecutionId;

/**
 * What {@link io.durablebatch.repository.spi.KernelRepository#recordStepProgress} recorded: the step's new version and update
 * time
 * (everything else is what the caller sent, on the row it saw at the expected version), and whether
 * a stop was requested for its job execution, so its owner stops at this chunk boundary.
 */
public record StepProgress(StepExecutionId id, ExecutionVersion version, Instant lastUpdated, boolean stopRequested) {

    /** {@code seen} as it is now: with this progress applied. */
    public StepExecution applyTo(StepExecution seen, java.util.Optional<Checkpoint> checkpoint, StepCounters counters) {
        if (!seen.id().equals(id)) {
            throw new IllegalArgumentException("seen must be step execution " + id + ", not " + seen.id());
        }
        return new StepExecution(seen.id(), seen.jobExecutionId(), seen.jobInstanceId(), seen.stepName(), seen.status(),
                seen.exitStatus(), seen.failure(), checkpoint.isPresent() ? checkpoint : seen.checkpoint(), counters,
                seen.createdAt(), seen.startedAt(), seen.endedAt(), lastUpdated, version);
    }
}
