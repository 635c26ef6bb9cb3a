package io.durablebatch.runtime.job;

import java.time.Instant;
import java.util.Optional;

import jakarta.inject.Singleton;

import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.job.Step;
import io.durablebatch.repository.flow.FlowStepState;
import io.durablebatch.repository.flow.NodeId;
import io.durablebatch.repository.flow.StartLimit;
import io.durablebatch.repository.spi.KernelRepository;

/**
 * The durable history of flow nodes, from the repository's flow operations: attempts are found and
 * started by node id (so a renamed step keeps its history), and each start consumes one of the
 * node's start limit across all executions of the instance, counted by the database. Both run inside
 * the caller's transaction.
 */
@Singleton
public class FlowStepHistory {

    private final KernelRepository repository;

    FlowStepHistory(KernelRepository repository) {
        this.repository = repository;
    }

    /** The latest attempt of {@code step}'s node in the instance of {@code execution}, this execution included. */
    public Optional<StepExecution> latestAttempt(JobExecution execution, Step step) {
        return repository.latestFlowStep(execution.jobInstanceId(), NodeId.of(step.id())).map(FlowStepState::latest);
    }

    /**
     * Records a new attempt of {@code step}'s node in {@code execution}, STARTED at once and resuming
     * {@code resumeFrom}.
     */
    public StepExecution startAttempt(JobExecution execution, Step step, Optional<Checkpoint> resumeFrom) {
        int limit = step.settings().startLimit();
        return repository.startFlowStepExecution(execution.id(), step.name(), NodeId.of(step.id()),
                limit == 0 ? StartLimit.UNLIMITED : StartLimit.of(limit), resumeFrom, Instant.now());
    }
}
