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

import io.durablebatch.context.PartitionContext;
import io.durablebatch.context.StepContext;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.PartitionAnalyzer;
import io.durablebatch.job.Partitioner;
import io.durablebatch.job.Partitioning;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.job.Steps;
import io.durablebatch.repository.partition.PartitionPlanEntry;
import io.durablebatch.repository.partition.StepPartition;
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

    static volatile java.util.concurrent.CountDownLatch RUNNING = new java.util.concurrent.CountDownLatch(1);

    /** What the analyzer of "analyzed" saw, by run, with the thread it ran on. */
    static final Map<String, Queue<String>> ANALYZED = new ConcurrentHashMap<>();

    static RepeatStatus collecting(StepContext context) {
        String key = context.partition().orElseThrow().key();
        context.collect(key + "1");
        context.collect(key + "2");
        if (key.equals("b") && FAIL_B.contains(context.parameters().string("run"))) {
            throw new IllegalStateException("b fails");
        }
        context.setExitStatus(ExitStatus.of("DONE_" + key));
        return RepeatStatus.FINISHED;
    }

    static final class RecordingAnalyzer implements PartitionAnalyzer {
        private static void saw(StepContext parent, String what) {
            ANALYZED.computeIfAbsent(parent.parameters().string("run"), r -> new ConcurrentLinkedQueue<>())
                    .add(what + " @" + Thread.currentThread().getName());
        }

        @Override
        public void collected(StepContext parent, PartitionContext partition, Object data) {
            saw(parent, "data " + data);
        }

        @Override
        public void ended(StepContext parent, PartitionContext partition, ExecutionStatus status, ExitStatus exitStatus) {
            saw(parent, "ended " + partition.key() + " " + status + " " + exitStatus.code());
            if (parent.parameters().string("run").startsWith("throwing")) {
                throw new IllegalStateException("the analyzer refuses partition " + partition.key());
            }
        }

        @Override
        public void allEnded(StepContext parent, ExecutionStatus status) {
            saw(parent, "all " + status);
            parent.setExitStatus(ExitStatus.of("ANALYZED_" + status));
        }
    }

    @Singleton
    static class Jobs {
        @Produces
        JobDefinition analyzed() {
            return Job.named("analyzed")
                    .start(Steps.partitioned("split", context -> entries("a", "b", "c"), Steps.tasklet("splitWorker",
                            PartitioningTest::collecting)).withWorkers(2).analyzer(new RecordingAnalyzer()))
                    .build();
        }

        /** One worker thread; each partition runs until the job is stopped. */
        @Produces
        JobDefinition analyzedUntilStopped() {
            return Job.named("analyzedUntilStopped")
                    .start(Steps.partitioned("split", context -> entries("a", "b", "c"), Steps.tasklet("splitWorker",
                            context -> {
                                RUNNING.countDown();
                                Thread.sleep(20);
                                return RepeatStatus.CONTINUABLE;
                            })).withWorkers(1).analyzer(new RecordingAnalyzer()))
                    .build();
        }

        @Produces
        JobDefinition unanalyzed() {
            return Job.named("unanalyzed")
                    .start(Steps.partitioned("split", context -> entries("a"), Steps.tasklet("splitWorker",
                            PartitioningTest::collecting)))
                    .build();
        }

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

    private List<String> analyzed(String run) {
        return List.copyOf(ANALYZED.getOrDefault(run, new ConcurrentLinkedQueue<>()));
    }

    @Test
    void theAnalyzerGetsEachPartitionsDataThenItsEndOnTheStepsThreadAndSetsTheStepsExitStatus() {
        String run = freshRun();
        JobExecution done = operator.runAndWait("analyzed", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.COMPLETED, done.status());
        List<String> seen = analyzed(run);
        assertEquals(10, seen.size(), seen.toString());
        Set<String> threads = seen.stream().map(s -> s.substring(s.indexOf('@') + 1)).collect(Collectors.toSet());
        assertEquals(1, threads.size(), "one thread: " + seen);
        assertTrue(threads.stream().noneMatch(t -> t.contains("partition")), "the step's thread: " + seen);
        List<String> events = seen.stream().map(s -> s.substring(0, s.indexOf(" @"))).toList();
        for (String key : List.of("a", "b", "c")) {
            int first = events.indexOf("data " + key + "1");
            int second = events.indexOf("data " + key + "2");
            int ended = events.indexOf("ended " + key + " COMPLETED DONE_" + key);
            assertTrue(first >= 0 && first < second && second < ended, "data in order, then the end: " + events);
        }
        assertEquals("all COMPLETED", events.get(9));
        assertEquals("ANALYZED_COMPLETED", steps(done, "split").get(0).exitStatus().code(),
                "the exit status the analyzer set replaces the partitions'");
    }

    @Test
    void theAnalyzerSeesAFailedPartitionAndTheAggregateStatus() {
        String run = freshRun();
        FAIL_B.add(run);
        JobExecution failed = operator.runAndWait("analyzed", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.FAILED, failed.status());
        List<String> events = analyzed(run).stream().map(s -> s.substring(0, s.indexOf(" @"))).toList();
        assertTrue(events.contains("ended b FAILED FAILED"), events.toString());
        assertEquals("all FAILED", events.get(events.size() - 1));
        StepExecution parent = steps(failed, "split").get(0);
        assertEquals(ExecutionStatus.FAILED, parent.status());
        assertEquals("ANALYZED_FAILED", parent.exitStatus().code());
    }

    @Test
    void anAnalyzerThatThrowsFailsTheStep() {
        String run = "throwing-" + freshRun();
        JobExecution failed = operator.runAndWait("analyzed", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.FAILED, failed.status());
        StepExecution parent = steps(failed, "split").get(0);
        assertEquals(ExecutionStatus.FAILED, parent.status());
        assertTrue(parent.failure().orElseThrow().message().startsWith("the analyzer refuses partition"),
                parent.failure().toString());
    }

    @Test
    void collectingInAWorkerOfAStepWithoutAnalyzerFailsThePartition() {
        String run = freshRun();
        JobExecution failed = operator.runAndWait("unanalyzed", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.FAILED, failed.status());
        StepExecution worker = steps(failed, "splitWorker").get(0);
        assertEquals("step 'splitWorker' is no worker of a partitioned step with an analyzer: it has nowhere to send "
                + "collected data", worker.failure().orElseThrow().message());
    }

    @Test
    void aStopThatLeavesPartitionsUnstartedEndsTheAnalysisStopped() throws Exception {
        String run = freshRun();
        RUNNING = new java.util.concurrent.CountDownLatch(1);
        io.durablebatch.execution.JobExecutionId id = operator.start("analyzedUntilStopped", KernelTestSupport.run(run),
                call());
        assertTrue(RUNNING.await(30, java.util.concurrent.TimeUnit.SECONDS));
        operator.stop(id, call());
        JobExecution stopped = operator.await(id, Duration.ofSeconds(30));
        assertEquals(ExecutionStatus.STOPPED, stopped.status());
        List<String> events = analyzed(run).stream().map(s -> s.substring(0, s.indexOf(" @"))).toList();
        assertEquals(List.of("ended a STOPPED STOPPED", "all STOPPED"), events,
                "the started partition's end, then the end of the attempt; b and c are left to a restart");
    }
}
