package io.durablebatch.benchmarks;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

import jakarta.enterprise.context.ApplicationScoped;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobInstanceKey;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.execution.StepName;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.partition.PartitionPlanEntry;
import io.durablebatch.repository.partition.StepPartition;
import io.durablebatch.repository.spi.KernelRepository;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * Partitioned steps for the partition workloads: a running job with a STARTED parent step, plans of
 * generated entries, and workers that claim and complete partitions in the two units of work the
 * kernel commits per partition.
 */
@ApplicationScoped
class PartitionedJobs {

    /** What each worker step reports: a chunk of 100 items. */
    static final StepCounters CHUNK = new StepCounters(100, 100, 0, 0, 0, 0, 1, 0);

    /** A running job execution and its STARTED parent step. */
    record Parent(JobExecution execution, StepExecution step) {
    }

    private final KernelRepository repository;

    PartitionedJobs(KernelRepository repository) {
        this.repository = repository;
    }

    /** Entries {@code key-00000001 ...} in that order, each with a small JSON range as input. */
    static List<PartitionPlanEntry> entries(int count) {
        return IntStream.rangeClosed(1, count).mapToObj(i -> PartitionPlanEntry.of(String.format("key-%08d", i),
                ("{\"from\":" + (i - 1) * 1000 + ",\"to\":" + i * 1000 + "}").getBytes(StandardCharsets.UTF_8)))
                .toList();
    }

    /** A running job execution of a new instance of {@code job} with a STARTED parent step, in one unit of work. */
    Parent start(String job, long run) {
        return QuarkusTransaction.requiringNew().call(() -> {
            var instance = repository.selectOrCreateJobInstance(JobInstanceKey.of(JobName.of(job), Map.of("run", run)))
                    .instance();
            JobExecution created = repository.createJobExecution(JobExecutionRequest.of(instance.id()));
            JobExecution execution = repository.transitionJobExecution(created.id(), created.version(),
                    LifecycleTransition.to(ExecutionStatus.STARTED, Instant.now()));
            StepExecution step = repository.createStepExecution(execution.id(), StepName.of("partitioned"));
            return new Parent(execution, repository.transitionStepExecution(step.id(), step.version(),
                    LifecycleTransition.to(ExecutionStatus.STARTED, Instant.now())));
        });
    }

    List<StepPartition> plan(Parent parent, List<PartitionPlanEntry> entries) {
        return QuarkusTransaction.requiringNew().call(() -> repository.createStepPartitionPlan(parent.step().id(),
                entries));
    }

    /**
     * The worker's first unit of work: start a worker step, claim the next partition for it and move
     * the worker to STARTED. Empty, and rolled back so that no idle worker step is left, once the
     * plan is worked off.
     */
    Optional<StepPartition> claim(Parent parent) {
        try {
            return Optional.of(QuarkusTransaction.requiringNew().call(() -> {
                StepExecution worker = repository.createStepExecution(parent.execution().id(), StepName.of("worker"));
                StepPartition claimed = repository.claimNextStepPartition(parent.step().id(), worker.id())
                        .orElseThrow(WorkedOff::new);
                repository.transitionStepExecution(worker.id(), worker.version(),
                        LifecycleTransition.to(ExecutionStatus.STARTED, Instant.now()));
                return claimed;
            }));
        } catch (WorkedOff done) {
            return Optional.empty();
        }
    }

    /** The worker's last unit of work: end the worker COMPLETED with its counters and complete the partition. */
    StepPartition complete(StepPartition claimed) {
        StepExecutionId worker = claimed.worker().orElseThrow();
        return QuarkusTransaction.requiringNew().call(() -> {
            // the worker was created and started in the claim's unit of work: version 1
            repository.transitionStepExecution(worker, ExecutionVersion.of(1),
                    LifecycleTransition.to(ExecutionStatus.COMPLETED, Instant.now()).withCounters(CHUNK));
            return repository.completeStepPartition(claimed.id(), claimed.version(), worker);
        });
    }

    /** Runs {@code partition} to COMPLETED by a new worker, in the caller's unit of work (set-up only). */
    void runToCompletion(Parent parent, StepPartition partition) {
        StepExecution worker = repository.createStepExecution(parent.execution().id(), StepName.of("worker"));
        StepPartition assigned = repository.assignStepPartition(partition.id(), partition.version(), worker.id());
        StepExecution started = repository.transitionStepExecution(worker.id(), worker.version(),
                LifecycleTransition.to(ExecutionStatus.STARTED, Instant.now()));
        repository.transitionStepExecution(worker.id(), started.version(),
                LifecycleTransition.to(ExecutionStatus.COMPLETED, Instant.now()).withCounters(CHUNK));
        repository.completeStepPartition(assigned.id(), assigned.version(), worker.id());
    }

    /** Thrown to roll a claim back when no partition is left. */
    private static final class WorkedOff extends RuntimeException {
        private static final long serialVersionUID = 1L;
    }
}
