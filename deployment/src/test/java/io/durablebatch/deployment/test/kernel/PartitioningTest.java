package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.deployment.test.kernel.KernelTestSupport.call;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.freshRun;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.PartitionContext;
import io.durablebatch.job.Partitioner;
import io.durablebatch.job.Partitioning;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.job.StepContext;
import io.durablebatch.job.Steps;
import io.durablebatch.partition.PartitionPlanEntry;
import io.durablebatch.partition.StepPartition;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@link Partitioner#partitioning}: a restart may partition afresh instead of resuming the stored
 * plan, an attempt may choose its worker threads, and a worker knows its parent attempt.
 */
class PartitioningTest extends KernelTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, KernelTest.class,
                    KernelTestSupport.class, Jobs.class));

    /** What each worker ran, by run: its partition key, its thread, its parent. */
    static final Map<String, Queue<String>> RAN = new ConcurrentHashMap<>();
    /** Runs whose partition "b" fails. */
    static final Set<String> FAIL_B = ConcurrentHashMap.newKeySet();

    /** Three partitions a, b, c; on a restart two fresh ones x, y; one worker thread. */
    static final class Repartitioning implements Partitioner {
        @Override
        public List<PartitionPlanEntry> partition(StepContext context) {
            return entries("a", "b", "c");
        }

        @Override
        public Partitioning partitioning(StepContext context, boolean resumable) {
            return (resumable ? Partitioning.of(entries("x", "y")) : Partitioning.of(partition(context))).withWorkers(1);
        }
    }

    static List<PartitionPlanEntry> entries(String... keys) {
        return java.util.Arrays.stream(keys).map(k -> PartitionPlanEntry.of(k, new byte[0])).toList();
    }

    static RepeatStatus work(StepContext context) {
        String run = context.parameters().string("run");
        PartitionContext partition = context.partition().orElseThrow();
        RAN.computeIfAbsent(run, r -> new ConcurrentLinkedQueue<>()).add(partition.key() + " "
                + Thread.currentThread().getName() + " " + partition.parent().value());
        if (partition.key().equals("b") && FAIL_B.contains(run)) {
            throw new IllegalStateException("b fails");
        }
        return RepeatStatus.FINISHED;
    }

    @Singleton
    static class Jobs {
        @Produces
        JobDefinition repartitioned() {
            return Job.named("repartitioned")
                    .start(Steps.partitioned("split", new Repartitioning(), Steps.tasklet("splitWorker",
                            PartitioningTest::work)))
                    .build();
        }

        @Produces
        JobDefinition resumesNothing() {
            return Job.named("resumesNothing")
                    .start(Steps.partitioned("split", new Partitioner() {
                        @Override
                        public List<PartitionPlanEntry> partition(StepContext context) {
                            return entries("a");
                        }

                        @Override
                        public Partitioning partitioning(StepContext context, boolean resumable) {
                            return Partitioning.resume();
                        }
                    }, Steps.tasklet("splitWorker", PartitioningTest::work)))
                    .build();
        }
    }

    private List<StepExecution> steps(JobExecution execution, String name) {
        return RepositoryTestSupport.tx(() -> repository.stepExecutions(execution.id())).stream()
                .filter(s -> s.stepName().value().equals(name)).toList();
    }

    private List<String> keys(StepExecution parent) {
        return RepositoryTestSupport.tx(() -> repository.stepPartitionPlan(parent.id())).stream()
                .map(StepPartition::entry).map(e -> new String(e.key(), StandardCharsets.UTF_8)).toList();
    }

    @Test
    void aRestartMayPartitionAfreshAndRunsEveryNewPartition() {
        String run = freshRun();
        FAIL_B.add(run);
        JobExecution failed = operator.runAndWait("repartitioned", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.FAILED, failed.status());
        StepExecution failedParent = steps(failed, "split").get(0);
        assertEquals(List.of("a", "b", "c"), keys(failedParent));

        FAIL_B.remove(run);
        RAN.get(run).clear();
        JobExecution restarted = operator.await(operator.restart(failed.id(), call()), Duration.ofMinutes(1));
        assertEquals(ExecutionStatus.COMPLETED, restarted.status());
        StepExecution parent = steps(restarted, "split").get(0);
        assertEquals(List.of("x", "y"), keys(parent), "the fresh plan replaced the stored one");
        List<String> ran = List.copyOf(RAN.get(run));
        assertEquals(Set.of("x", "y"), ran.stream().map(r -> r.split(" ")[0]).collect(Collectors.toSet()),
                "only the fresh partitions ran, the completed a and c were not kept: " + ran);
        assertEquals(1, ran.stream().map(r -> r.split(" ")[1]).distinct().count(),
                "the attempt's one worker thread ran both partitions: " + ran);
        assertTrue(ran.stream().allMatch(r -> r.split(" ")[2].equals(String.valueOf(parent.id().value()))),
                "each worker knows its parent attempt " + parent.id() + ": " + ran);
        assertEquals(2, steps(restarted, "splitWorker").size());
    }

    @Test
    void aPartitionerThatResumesWhereNothingIsStoredFailsTheStep() {
        String run = freshRun();
        JobExecution failed = operator.runAndWait("resumesNothing", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.FAILED, failed.status());
        StepExecution parent = steps(failed, "split").get(0);
        assertEquals(ExecutionStatus.FAILED, parent.status());
        assertTrue(parent.failure().orElseThrow().message().contains("resumes a stored plan, but this attempt restarts "
                + "none"), parent.failure().toString());
        assertTrue(RAN.getOrDefault(run, new ConcurrentLinkedQueue<>()).isEmpty(), "no partition ran");
    }
}
