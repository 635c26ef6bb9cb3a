package io.durablebatch.repository.partition;

import java.time.Instant;
import java.util.Optional;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecutionId;

/**
 * Snapshot of one partition of a parent step's plan. {@code ordinal} is the entry's one-based
 * position in the plan as it was created.
 * <p>
 * Status {@code STARTING} is unassigned work; {@code STARTED} is assigned to {@code worker}; once
 * completed, status, exit status and counters are those of the worker's durable step execution
 * (a worker ABANDONED by an operator counts as FAILED). A partition carried over by a restart keeps
 * the worker its result came from and names the partition it continues in {@code restartedFrom}.
 * <p>
 * A partition whose worker lost its lease (its process died) is released: unassigned again, it names
 * that worker in {@code previousWorker} (whose checkpoint the next worker resumes) and counts its
 * releases in {@code releaseCount}.
 */
public record StepPartition(StepPartitionId id, StepExecutionId parentStepExecutionId, int ordinal,
        PartitionPlanEntry entry, ExecutionStatus status, Optional<StepExecutionId> worker, ExitStatus exitStatus,
        StepCounters counters, Optional<StepPartitionId> restartedFrom, Instant createdAt,
        Optional<Instant> assignedAt, Optional<Instant> completedAt, Instant lastUpdated, ExecutionVersion version,
        Optional<StepExecutionId> previousWorker, int releaseCount) {

    /** Whether the partition still waits for a worker. */
    public boolean isUnassigned() {
        return status == ExecutionStatus.STARTING;
    }

    /** Whether the partition has its final result (COMPLETED, FAILED or STOPPED). */
    public boolean isDone() {
        return !status.isActive();
    }
}
