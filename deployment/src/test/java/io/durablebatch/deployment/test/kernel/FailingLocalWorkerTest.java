package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.call;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.distinctIds;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.freshRun;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.rangePartitions;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.context.StepContext;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.deployment.test.kernel.KernelTestSupport.RangeReader;
import io.durablebatch.deployment.test.kernel.KernelTestSupport.Row;
import io.durablebatch.deployment.test.kernel.KernelTestSupport.TargetWriter;
import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.ExecutionFailure;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.item.ItemReader;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.repository.partition.StepPartition;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A local worker thread that fails (here with an Error that escapes its step runner) stops the
 * handing out of work, but the parent ends only once its other workers have: no step of the execution
 * is ever left active under an ended parent, and the parent records the thread's failure.
 */
class FailingLocalWorkerTest extends KernelTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, KernelTest.class,
                    KernelTestSupport.class, Jobs.class, WorkerCrash.class, CrashingReader.class))
            .overrideConfigKey("quarkus.durable-batch.control.poll-interval", "100ms");

    static final int PARTITIONS = 4;
    static final int PER_PARTITION = 100;

    /** Runs whose first partition crashes its worker thread, once. */
    static final Set<String> CRASHING = ConcurrentHashMap.newKeySet();
    /** Counted down once the second partition of a run is being written. */
    static final Map<String, CountDownLatch> SECOND_RUNNING = new ConcurrentHashMap<>();
    /** Counted down as the first partition's worker thread crashes. */
    static final Map<String, CountDownLatch> CRASHED = new ConcurrentHashMap<>();
    /**
     * How long the second partition's first chunk goes on after the crash: the parent must see the
     * crash before the other worker asks for the next partition (partitions remain, the step fails).
     */
    static final long NOTICE_MILLIS = 2000;

    /** What no step runner records: it escapes the worker thread. */
    static final class WorkerCrash extends Error {
        private static final long serialVersionUID = 1L;

        WorkerCrash(String message) {
            super(message);
        }
    }

    /**
     * Reads a partition's range; closing the reader of a crashing run's first partition throws, once
     * the second partition is being written, out of the step runner (which has ended the step).
     */
    static final class CrashingReader implements ItemReader<Row> {
        private final RangeReader range;
        private final String run;
        private final boolean first;

        CrashingReader(StepContext context) {
            this.range = KernelTestSupport.rangeOf(context);
            this.run = context.parameters().string("run");
            this.first = context.partition().orElseThrow().ordinal() == 1;
        }

        @Override
        public void open(Optional<Checkpoint> checkpoint) {
            range.open(checkpoint);
        }

        @Override
        public Row read() {
            return range.read();
        }

        @Override
        public Checkpoint checkpoint() {
            return range.checkpoint();
        }

        @Override
        public void close() throws InterruptedException {
            if (first && CRASHING.remove(run)) {
                SECOND_RUNNING.get(run).await(10, TimeUnit.SECONDS);
                CRASHED.get(run).countDown();
                throw new WorkerCrash("injected crash of the worker thread of run " + run);
            }
        }
    }

    @Singleton
    static class Jobs {
        @Inject
        AgroalDataSource dataSource;

        @Produces
        JobDefinition crashingWorker() {
            TargetWriter target = new TargetWriter(dataSource);
            return Job.named("crashingWorker")
                    .start(rangePartitions(PARTITIONS, PER_PARTITION, 10, CrashingReader::new,
                            context -> (List<? extends Row> items) -> {
                                long first = items.get(0).id();
                                if (first >= PER_PARTITION && first < 2 * PER_PARTITION) {
                                    SECOND_RUNNING.get(items.get(0).run()).countDown();
                                    if (first == PER_PARTITION && CRASHED.get(items.get(0).run()).await(10, TimeUnit.SECONDS)) {
                                        Thread.sleep(NOTICE_MILLIS);
                                    }
                                    Thread.sleep(40);
                                }
                                target.write(items);
                            }).withWorkers(2))
                    .build();
        }
    }

    @Test
    void theParentEndsOnlyAfterItsOtherWorkersAndLeavesNoStepActive() throws SQLException {
        String run = freshRun();
        CRASHING.add(run);
        SECOND_RUNNING.put(run, new CountDownLatch(1));
        CRASHED.put(run, new CountDownLatch(1));

        JobExecution failed = operator.runAndWait("crashingWorker", KernelTestSupport.run(run), call());

        assertEquals(ExecutionStatus.FAILED, failed.status());
        List<StepExecution> steps = tx(() -> repository.stepExecutions(failed.id()));
        assertEquals(List.of(), steps.stream().filter(s -> s.status().isActive()).toList(),
                "no step of the execution is left active");
        StepExecution parent = steps.stream().filter(s -> s.stepName().value().equals("load")).findFirst().orElseThrow();
        List<StepPartition> plan = tx(() -> repository.stepPartitionPlan(parent.id()));
        assertEquals(List.of(), plan.stream().filter(p -> p.status() == ExecutionStatus.STARTED).toList(),
                "no partition of the ended parent is left running");
        assertEquals(ExecutionStatus.FAILED, parent.status());
        assertEquals(WorkerCrash.class.getName(), parent.failure().map(ExecutionFailure::type).orElseThrow(),
                "the parent records the thread's failure");
        StepPartition crashed = plan.get(0);
        StepPartition other = plan.get(1);
        assertEquals(ExecutionStatus.COMPLETED, crashed.status(),
                "the crashed thread's worker had completed its partition, which was completed from it");
        assertEquals(ExecutionStatus.COMPLETED, other.status(), "the other worker finished its partition");
        StepExecution otherWorker = steps.stream().filter(s -> s.id().equals(other.worker().orElseThrow()))
                .findFirst().orElseThrow();
        assertFalse(parent.endedAt().orElseThrow().isBefore(otherWorker.endedAt().orElseThrow()),
                "the parent ended after the other worker");
        assertTrue(plan.subList(2, PARTITIONS).stream().allMatch(StepPartition::isUnassigned),
                "no more work was handed out after the crash: " + plan);

        JobExecution restarted = operator.await(operator.restart(failed.id(), call()), Duration.ofSeconds(30));
        assertEquals(ExecutionStatus.COMPLETED, restarted.status());
        assertEquals(PARTITIONS * PER_PARTITION, rows(dataSource, run));
        assertEquals(PARTITIONS * PER_PARTITION, distinctIds(dataSource, run));
    }
}
