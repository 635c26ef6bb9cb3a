package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.awaitPlannedParent;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.call;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.distinctIds;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.freshRun;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.opens;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.pausing;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.rangePartitions;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.rows;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.startOtherProcessWorker;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.step;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.LongStream;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.deployment.test.kernel.KernelTestSupport.Row;
import io.durablebatch.deployment.test.kernel.KernelTestSupport.TargetWriter;
import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.ExecutionFailure;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.repository.partition.StepPartition;
import io.durablebatch.runtime.partition.PartitionLeaseStore;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A partition worker that dies (its process gone, its lease run out) is replaced, not waited for: the
 * parent releases its partition, a local worker resumes the dead worker's checkpoint, and the job
 * completes in the same execution; a stop ends the wait too. The dead worker is simulated as a worker
 * of another process would act through the repository: it claims a partition, commits one chunk, and
 * is never heard of again.
 */
class DeadPartitionWorkersTest extends KernelTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, KernelTest.class,
                    KernelTestSupport.class, Jobs.class))
            .overrideConfigKey("quarkus.durable-batch.lease.duration", "2s")
            .overrideConfigKey("quarkus.durable-batch.control.poll-interval", "100ms");

    static final int PARTITIONS = 4;
    static final int PER_PARTITION = 100;
    static final int CHUNK = 10;

    @Singleton
    static class Jobs {
        @Inject
        AgroalDataSource dataSource;

        @Produces
        JobDefinition leasedPartitions() {
            return Job.named("leasedPartitions")
                    .start(rangePartitions(PARTITIONS, PER_PARTITION, CHUNK, pausing(20, new TargetWriter(dataSource)))
                            .withWorkers(1))
                    .build();
        }
    }

    /** What the dead worker left behind: its step attempt, its partition and where it got to. */
    record DeadWorker(StepExecution step, StepPartition partition, long resumesAt) {
    }

    @Inject
    RepositoryTables tables;

    @Test
    void aPartitionWhoseWorkerDiedIsResumedByALocalWorkerAndTheJobCompletesInTheSameExecution() throws Exception {
        String run = freshRun();
        JobExecutionId execution = operator.start("leasedPartitions", KernelTestSupport.run(run), call());
        StepExecution parent = awaitPlannedParent(repository, execution);
        DeadWorker dead = workerThatDiesAfterOneChunk(execution, parent, run);

        JobExecution ended = operator.await(execution, Duration.ofSeconds(30));

        assertEquals(ExecutionStatus.COMPLETED, ended.status(), "completed in the same execution");
        assertEquals(ExecutionStatus.COMPLETED, step(repository, execution, "load").status());
        assertOwnerLost(dead);
        StepPartition released = partition(parent, dead.partition().ordinal());
        assertEquals(ExecutionStatus.COMPLETED, released.status());
        assertEquals(1, released.releaseCount());
        assertEquals(Optional.of(dead.step().id()), released.previousWorker());
        StepExecution successor = tx(() -> repository.getStepExecution(released.worker().orElseThrow()))
                .orElseThrow();
        assertEquals(PER_PARTITION - CHUNK, successor.counters().readCount(), "the successor read only what was left");
        assertTrue(opens(run).contains(Long.toString(dead.resumesAt())),
                "the successor resumed the dead worker's checkpoint: " + opens(run));
        assertEquals(List.of(dead.step().id().value()), releasedWorkers(parent));
        assertEquals(PARTITIONS * PER_PARTITION, rows(dataSource, run));
        assertEquals(PARTITIONS * PER_PARTITION, distinctIds(dataSource, run), "every item written exactly once");
        assertNoActiveStep(execution);
    }

    @Test
    void aStopEndsTheWaitForADeadWorkerAndARestartCompletes() throws Exception {
        String run = freshRun();
        JobExecutionId execution = operator.start("leasedPartitions", KernelTestSupport.run(run), call());
        StepExecution parent = awaitPlannedParent(repository, execution);
        DeadWorker dead = workerThatDiesAfterOneChunk(execution, parent, run);

        operator.stop(execution, call());
        JobExecution stopped = operator.await(execution, Duration.ofSeconds(30));

        assertEquals(ExecutionStatus.STOPPED, stopped.status(), "the stop ended the wait");
        assertEquals(ExecutionStatus.STOPPED, step(repository, execution, "load").status());
        assertOwnerLost(dead);
        StepPartition released = partition(parent, dead.partition().ordinal());
        assertTrue(released.isUnassigned(), "left to the restart: " + released);
        assertEquals(Optional.of(dead.step().id()), released.previousWorker());
        assertNoActiveStep(execution);

        JobExecution restarted = operator.await(operator.restart(execution, call()), Duration.ofSeconds(30));
        assertEquals(ExecutionStatus.COMPLETED, restarted.status());
        assertTrue(opens(run).contains(Long.toString(dead.resumesAt())),
                "the restart resumed the dead worker's checkpoint: " + opens(run));
        assertEquals(PARTITIONS * PER_PARTITION, rows(dataSource, run));
        assertEquals(PARTITIONS * PER_PARTITION, distinctIds(dataSource, run), "every item written exactly once");
    }

    /**
     * As a worker of another process: claims the next partition, commits its first chunk (the items and
     * the checkpoint in one transaction) and then never renews its lease again.
     */
    DeadWorker workerThatDiesAfterOneChunk(JobExecutionId execution, StepExecution parent, String run) {
        StepExecution started = startOtherProcessWorker(repository, execution);
        StepPartition claimed = tx(() -> repository.claimNextStepPartition(parent.id(), started.id())).orElseThrow();
        long from = Long.parseLong(new String(claimed.entry().input(), StandardCharsets.UTF_8).split(",")[0]);
        long next = from + CHUNK;
        StepExecution committed = tx(() -> {
            try {
                new TargetWriter(dataSource).write(LongStream.range(from, next)
                        .mapToObj(id -> new Row(run, id)).toList());
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
            repository.recordStepProgress(started.id(), started.version(),
                    Optional.of(Checkpoint.of(ByteBuffer.allocate(Long.BYTES).putLong(next).array())),
                    new StepCounters(CHUNK, CHUNK, 0, 0, 0, 0, 1, 0), now());
            return repository.getStepExecution(started.id()).orElseThrow();
        });
        return new DeadWorker(committed, claimed, next);
    }

    void assertOwnerLost(DeadWorker dead) {
        StepExecution worker = tx(() -> repository.getStepExecution(dead.step().id())).orElseThrow();
        assertEquals(ExecutionStatus.FAILED, worker.status());
        assertEquals(PartitionLeaseStore.OWNER_LOST, worker.failure().map(ExecutionFailure::type).orElseThrow());
        assertTrue(worker.endedAt().isPresent());
    }

    void assertNoActiveStep(JobExecutionId execution) {
        List<StepExecution> active = tx(() -> repository.stepExecutions(execution)).stream()
                .filter(s -> s.status().isActive()).toList();
        assertEquals(List.of(), active, "no step of the execution is left active");
    }

    StepPartition partition(StepExecution parent, int ordinal) {
        return tx(() -> repository.stepPartitionPlan(parent.id())).stream()
                .filter(p -> p.ordinal() == ordinal).findFirst().orElseThrow();
    }

    List<Long> releasedWorkers(StepExecution parent) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement(
                        tables.substitute(
                                "SELECT worker_step_execution_id FROM {p}partition_release WHERE parent_step_execution_id = ? "
                                        + "AND reason = 'OWNER_LOST' ORDER BY id"))) {
            select.setLong(1, parent.id().value());
            try (ResultSet rows = select.executeQuery()) {
                List<Long> workers = new ArrayList<>();
                while (rows.next()) {
                    workers.add(rows.getLong(1));
                }
                return workers;
            }
        }
    }
}
