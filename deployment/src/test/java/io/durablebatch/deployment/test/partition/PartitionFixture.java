package io.durablebatch.deployment.test.partition;

import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.IntStream;

import io.durablebatch.deployment.test.RepositoryFixtures;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.repository.partition.PartitionPlanEntry;
import io.durablebatch.repository.partition.StepPartition;
import io.durablebatch.repository.spi.KernelRepository;

/** A running job with a STARTED parent step, its plan, and workers that run partitions to an end. */
record PartitionFixture(RepositoryFixtures given, JobExecution execution, StepExecution parent) {

    /** A fresh instance's running attempt with a STARTED parent step (no plan yet). */
    static PartitionFixture start(RepositoryFixtures given, String job) {
        JobExecution execution = given.jobExecutionIn(job, ExecutionStatus.STARTED);
        return new PartitionFixture(given, execution,
                given.stepIn(execution.id(), "partitioned", ExecutionStatus.STARTED));
    }

    private KernelRepository repository() {
        return given.repository();
    }

    JobInstanceId instance() {
        return execution.jobInstanceId();
    }

    /** Entries {@code p-0001 ... p-n} in that order, each with its own input. */
    static List<PartitionPlanEntry> entries(int count) {
        return IntStream.rangeClosed(1, count).mapToObj(i -> PartitionPlanEntry.of(String.format("p-%05d", i),
                ("input-" + i).getBytes(StandardCharsets.UTF_8))).toList();
    }

    static StepCounters counters(long read, long write) {
        return new StepCounters(read, write, 0, 0, 0, 0, 1, 0);
    }

    List<StepPartition> plan(List<PartitionPlanEntry> entries) {
        return tx(() -> repository().createStepPartitionPlan(parent.id(), entries));
    }

    List<StepPartition> currentPlan() {
        return tx(() -> repository().stepPartitionPlan(parent.id()));
    }

    /** A new STARTED worker step attempt in the parent's job execution. */
    StepExecution worker() {
        return given.stepIn(execution.id(), "worker", ExecutionStatus.STARTED);
    }

    StepPartition assign(StepPartition partition, StepExecution worker) {
        return tx(() -> repository().assignStepPartition(partition.id(), partition.version(), worker.id()));
    }

    /**
     * Runs {@code partition} the way a worker does: assigned to a new worker, the worker ends with
     * {@code status}, {@code exitCode} and {@code counters}, and the partition is completed from it.
     */
    StepPartition run(StepPartition partition, ExecutionStatus status, String exitCode, StepCounters counters) {
        StepExecution worker = worker();
        StepPartition assigned = assign(partition, worker);
        given.endStep(worker, status, exitCode, counters);
        return tx(() -> repository().completeStepPartition(assigned.id(), assigned.version(), worker.id()));
    }

    /** The partition of the current plan with {@code ordinal}. */
    StepPartition ordinal(int ordinal) {
        return currentPlan().stream().filter(p -> p.ordinal() == ordinal).findFirst().orElseThrow();
    }
}
