package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.deployment.test.kernel.KernelTestSupport.awaitRows;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.call;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.distinctIds;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.freshRun;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.opens;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.rangePartitions;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.deployment.test.kernel.KernelTestSupport.Row;
import io.durablebatch.deployment.test.kernel.KernelTestSupport.TargetWriter;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.repository.partition.StepPartition;
import io.quarkus.test.QuarkusUnitTest;

/** Partitioned steps: plan, local workers, aggregate; a restart reruns only the unfinished partitions. */
class PartitionedStepTest extends KernelTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, KernelTest.class,
                    KernelTestSupport.class, Jobs.class));

    static final int PARTITIONS = 8;
    static final int PER_PARTITION = 1000;

    @Singleton
    static class Jobs {
        @Inject
        AgroalDataSource dataSource;

        @Produces
        JobDefinition partitionedLoad() {
            TargetWriter target = new TargetWriter(dataSource);
            return Job.named("partitionedLoad")
                    .start(rangePartitions(PARTITIONS, PER_PARTITION, 100, (List<? extends Row> items) -> {
                        if (items.get(0).run().startsWith("slow")) {
                            Thread.sleep(5);
                        }
                        target.write(items);
                    }).withWorkers(3))
                    .build();
        }

        /** Each worker's writer records the threads it writes on. */
        @Produces
        JobDefinition ownWriters() {
            return Job.named("ownWriters")
                    .start(rangePartitions(PARTITIONS, PER_PARTITION / 10, 10, KernelTestSupport::rangeOf, context -> {
                        TargetWriter target = new TargetWriter(dataSource);
                        Set<String> threads = ConcurrentHashMap.newKeySet();
                        WRITER_THREADS.add(threads);
                        return items -> {
                            threads.add(Thread.currentThread().getName());
                            target.write(items);
                        };
                    }).withWorkers(3))
                    .build();
        }
    }

    /** The threads each writer the "ownWriters" job created wrote on, one set per writer. */
    static final Queue<Set<String>> WRITER_THREADS = new ConcurrentLinkedQueue<>();

    @Test
    void everyPartitionWorkerWritesWithAWriterOfItsOwn() throws Exception {
        String run = freshRun();
        WRITER_THREADS.clear();
        JobExecution done = operator.await(operator.start("ownWriters", KernelTestSupport.run(run),
                call()), Duration.ofMinutes(1));
        assertEquals(ExecutionStatus.COMPLETED, done.status());
        assertEquals(PARTITIONS, WRITER_THREADS.size(), "one writer per partition worker attempt");
        assertTrue(WRITER_THREADS.stream().allMatch(threads -> threads.size() == 1),
                "no writer is shared between threads: " + WRITER_THREADS);
        assertEquals(PARTITIONS * PER_PARTITION / 10, distinctIds(dataSource, run));
    }

    List<StepExecution> steps(JobExecution execution) {
        return RepositoryTestSupport.tx(() -> repository.stepExecutions(execution.id()));
    }

    List<StepPartition> plan(StepExecution parent) {
        return RepositoryTestSupport.tx(() -> repository.stepPartitionPlan(parent.id()));
    }

    StepExecution parent(JobExecution execution) {
        return steps(execution).stream().filter(s -> s.stepName().value().equals("load")).findFirst().orElseThrow();
    }

    List<StepExecution> workers(JobExecution execution) {
        return steps(execution).stream().filter(s -> s.stepName().value().equals("loadRange")).toList();
    }

    @Test
    void workersRunEveryPartitionAndTheParentAggregates() throws SQLException {
        String run = freshRun();
        JobExecution execution = operator.runAndWait("partitionedLoad", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.COMPLETED, execution.status());
        StepExecution parent = parent(execution);
        assertEquals(ExecutionStatus.COMPLETED, parent.status());
        assertEquals(PARTITIONS * PER_PARTITION, parent.counters().readCount(), "the parent sums its partitions");
        assertEquals(PARTITIONS * PER_PARTITION, parent.counters().writeCount());
        List<StepPartition> plan = plan(parent);
        assertEquals(PARTITIONS, plan.size());
        assertTrue(plan.stream().allMatch(p -> p.status() == ExecutionStatus.COMPLETED));
        assertEquals(PARTITIONS, workers(execution).size(), "one worker attempt per partition, no empty claims");
        assertEquals(PARTITIONS * PER_PARTITION, rows(dataSource, run));
        assertEquals(PARTITIONS * PER_PARTITION, distinctIds(dataSource, run));
    }

    @Test
    void aRestartRerunsOnlyTheFailedPartitionFromItsCheckpoint() throws SQLException {
        String run = freshRun();
        KernelTestSupport.WRITE_FAILURES.put(run, id -> id == 5550);
        JobExecution failed = operator.runAndWait("partitionedLoad", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.FAILED, failed.status());
        StepExecution failedParent = parent(failed);
        assertEquals(ExecutionStatus.FAILED, failedParent.status());
        List<StepPartition> failedPlan = plan(failedParent);
        assertEquals(List.of("p5"), failedPlan.stream().filter(p -> p.status() == ExecutionStatus.FAILED)
                .map(p -> new String(p.entry().key(), StandardCharsets.UTF_8)).toList());
        assertEquals(7 * PER_PARTITION + 500, rows(dataSource, run), "p5 committed five chunks before it failed");

        KernelTestSupport.WRITE_FAILURES.remove(run);
        JobExecution restarted = operator.await(operator.restart(failed.id(), call()), Duration.ofMinutes(1));
        assertEquals(ExecutionStatus.COMPLETED, restarted.status());
        List<StepExecution> rerun = workers(restarted);
        assertEquals(1, rerun.size(), "only the failed partition ran again");
        assertEquals(500, rerun.get(0).counters().readCount());
        assertTrue(opens(run).contains("5500"), "p5 resumed at its last committed checkpoint: " + opens(run));
        StepExecution restartedParent = parent(restarted);
        assertEquals(ExecutionStatus.COMPLETED, restartedParent.status());
        List<StepPartition> restartedPlan = plan(restartedParent);
        assertTrue(restartedPlan.stream().allMatch(p -> p.status() == ExecutionStatus.COMPLETED));
        assertEquals(7, restartedPlan.stream().filter(p -> !p.worker().orElseThrow().equals(rerun.get(0).id())).count(),
                "seven partitions kept the results of their first workers");
        assertEquals(PARTITIONS * PER_PARTITION, rows(dataSource, run));
        assertEquals(PARTITIONS * PER_PARTITION, distinctIds(dataSource, run));
    }

    @Test
    void aStoppedPartitionedStepRestartsWhereEachPartitionStopped() throws Exception {
        String run = "slow-" + freshRun();
        JobExecutionId id = operator.start("partitionedLoad", KernelTestSupport.run(run), call());
        awaitRows(dataSource, run, 1500);
        operator.stop(id, call());
        JobExecution stopped = operator.await(id, Duration.ofSeconds(30));
        assertEquals(ExecutionStatus.STOPPED, stopped.status());
        assertEquals(ExecutionStatus.STOPPED, parent(stopped).status());
        long written = rows(dataSource, run);
        assertTrue(written < PARTITIONS * PER_PARTITION);
        JobExecution restarted = operator.await(operator.restart(stopped.id(), call()), Duration.ofMinutes(1));
        assertEquals(ExecutionStatus.COMPLETED, restarted.status());
        long rereadByRestart = workers(restarted).stream().mapToLong(w -> w.counters().readCount()).sum();
        assertEquals(PARTITIONS * PER_PARTITION - written, rereadByRestart, "nothing committed was read again");
        assertEquals(PARTITIONS * PER_PARTITION, rows(dataSource, run));
        assertEquals(PARTITIONS * PER_PARTITION, distinctIds(dataSource, run));
    }
}
