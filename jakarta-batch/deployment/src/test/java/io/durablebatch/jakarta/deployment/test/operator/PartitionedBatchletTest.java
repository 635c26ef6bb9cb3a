package io.durablebatch.jakarta.deployment.test.operator;

import static io.durablebatch.jakarta.deployment.test.operator.Executions.ended;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.operator;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.properties;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.run;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.stepNames;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import jakarta.batch.api.AbstractBatchlet;
import jakarta.batch.api.BatchProperty;
import jakarta.batch.api.partition.AbstractPartitionAnalyzer;
import jakarta.batch.api.partition.AbstractPartitionReducer;
import jakarta.batch.api.partition.PartitionCollector;
import jakarta.batch.api.partition.PartitionMapper;
import jakarta.batch.api.partition.PartitionPlan;
import jakarta.batch.api.partition.PartitionPlanImpl;
import jakarta.batch.runtime.BatchStatus;
import jakarta.batch.runtime.JobExecution;
import jakarta.batch.runtime.StepExecution;
import jakarta.batch.runtime.context.JobContext;
import jakarta.batch.runtime.context.StepContext;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.repository.spi.KernelRepository;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code <partition>} of batchlet steps: a static plan or a mapper, {@code #{partitionPlan['x']}}
 * per partition, contexts of their own, one visible step execution, restart resuming or overriding
 * the stored plan, stop of every partition's batchlet, and the refusals.
 */
class PartitionedBatchletTest {

    private static final String NS = "xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"2.0\"";

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar
                    .addClasses(Executions.class, PartBatchlet.class, PartMapper.class, WaitingPart.class)
                    .addAsResource(new StringAsset("""
                            <job id="planned" %s>
                                <step id="split">
                                    <batchlet ref="partBatchlet">
                                        <properties>
                                            <property name="label" value="#{partitionPlan['label']}?:none;"/>
                                            <property name="fail" value="#{partitionPlan['fail']}?:false;"/>
                                        </properties>
                                    </batchlet>
                                    <partition>
                                        <plan partitions="#{jobParameters['partitions']}" threads="2">
                                            <properties partition="0"><property name="label" value="zero"/></properties>
                                            <properties partition="1">
                                                <property name="label" value="one"/>
                                                <property name="fail" value="#{jobParameters['failOne']}?:false;"/>
                                            </properties>
                                            <properties partition="2"><property name="label" value="two"/></properties>
                                        </plan>
                                    </partition>
                                </step>
                            </job>
                            """.formatted(NS)), "META-INF/batch-jobs/planned.xml")
                    .addAsResource(new StringAsset("""
                            <job id="mapped" %s>
                                <step id="split">
                                    <batchlet ref="partBatchlet">
                                        <properties>
                                            <property name="label" value="#{partitionPlan['label']}"/>
                                            <property name="fail" value="#{partitionPlan['fail']}"/>
                                        </properties>
                                    </batchlet>
                                    <partition><mapper ref="partMapper"/></partition>
                                </step>
                            </job>
                            """.formatted(NS)), "META-INF/batch-jobs/mapped.xml")
                    .addAsResource(new StringAsset(
                            """
                                        <job id="waitingParts" %s>
                                            <step id="wait">
                                        <batchlet ref="waitingPart"/>
                                        <partition><plan partitions="2"/><reducer ref="partReducer"/></partition>
                                    </step>
                                        </job>
                                        """
                                    .formatted(NS)),
                            "META-INF/batch-jobs/waiting-parts.xml")
                    .addClasses(PartCollector.class, PartAnalyzer.class, PartReducer.class)
                    .addAsResource(new StringAsset("""
                            <job id="analyzed" %s>
                                <step id="split">
                                    <batchlet ref="partBatchlet">
                                        <properties>
                                            <property name="label" value="#{partitionPlan['label']}"/>
                                            <property name="fail" value="#{partitionPlan['fail']}"/>
                                        </properties>
                                    </batchlet>
                                    <partition>
                                        <plan partitions="2">
                                            <properties partition="0"><property name="label" value="p0"/></properties>
                                            <properties partition="1">
                                                <property name="label" value="p1"/>
                                                <property name="fail" value="#{jobParameters['fail']}?:false;"/>
                                            </properties>
                                        </plan>
                                        <collector ref="partCollector"/>
                                        <analyzer ref="partAnalyzer"/>
                                        <reducer ref="partReducer"/>
                                    </partition>
                                </step>
                            </job>
                            """.formatted(NS)), "META-INF/batch-jobs/analyzed.xml"));

    /** What the collector, analyzer and reducer of "analyzed" did, by run, with the thread each call ran on. */
    static final Map<String, Queue<String>> CALLS = new ConcurrentHashMap<>();

    static void called(JobContext job, String what) {
        String run = operator().getParameters(job.getExecutionId()).getProperty("run");
        CALLS.computeIfAbsent(run, r -> new ConcurrentLinkedQueue<>()).add(what + " @" + Thread.currentThread().getName());
    }

    @Named("partCollector")
    @Dependent
    static class PartCollector implements PartitionCollector {
        @Inject
        JobContext jobContext;

        @Inject
        StepContext stepContext;

        @Override
        public Serializable collectPartitionData() {
            String data = "data of " + jobContext.getTransientUserData() + " " + stepContext.getException();
            called(jobContext, "collect");
            return data;
        }
    }

    @Named("partAnalyzer")
    @Dependent
    static class PartAnalyzer extends AbstractPartitionAnalyzer {
        @Inject
        JobContext jobContext;

        @Inject
        StepContext stepContext;

        @Override
        public void analyzeCollectorData(Serializable data) {
            called(jobContext, "data " + data);
        }

        @Override
        public void analyzeStatus(BatchStatus batchStatus, String exitStatus) {
            called(jobContext, "status " + batchStatus + " " + exitStatus);
            if (operator().getParameters(jobContext.getExecutionId()).getProperty("stepExit") != null) {
                stepContext.setExitStatus("ANALYZED");
            }
        }
    }

    @Named("partReducer")
    @Dependent
    static class PartReducer extends AbstractPartitionReducer {
        @Inject
        JobContext jobContext;

        @Override
        public void beginPartitionedStep() {
            called(jobContext, "begin");
        }

        @Override
        public void beforePartitionedStepCompletion() {
            called(jobContext, "before");
        }

        @Override
        public void rollbackPartitionedStep() {
            called(jobContext, "rollback");
        }

        @Override
        public void afterPartitionedStepCompletion(PartitionStatus status) {
            called(jobContext, "after " + status);
        }
    }

    /** What each partition's batchlet saw, by run. */
    static final Map<String, Queue<Seen>> SEEN = new ConcurrentHashMap<>();

    record Seen(String label, String thread, long stepExecutionId, JobContext jobContext, StepContext stepContext) {
    }

    static List<Seen> seen(String run) {
        return List.copyOf(SEEN.getOrDefault(run, new ConcurrentLinkedQueue<>()));
    }

    @Named("partBatchlet")
    @Dependent
    static class PartBatchlet extends AbstractBatchlet {
        @Inject
        @BatchProperty
        String label;

        @Inject
        @BatchProperty
        String fail;

        @Inject
        JobContext jobContext;

        @Inject
        StepContext stepContext;

        @Override
        public String process() {
            String run = operator().getParameters(jobContext.getExecutionId()).getProperty("run");
            SEEN.computeIfAbsent(run, r -> new ConcurrentLinkedQueue<>()).add(new Seen(label,
                    Thread.currentThread().getName(), stepContext.getStepExecutionId(), jobContext, stepContext));
            jobContext.setTransientUserData(label);
            jobContext.setExitStatus("SET_IN_" + label);
            if (Boolean.parseBoolean(fail)) {
                throw new IllegalStateException("partition " + label + " fails");
            }
            return "PARTITION_" + label;
        }
    }

    /** Partitions from the job parameters: {@code partitions}, {@code override}, {@code failOn}, {@code big}. */
    @Named("partMapper")
    @Dependent
    static class PartMapper implements PartitionMapper {
        @Inject
        JobContext jobContext;

        @Override
        public PartitionPlan mapPartitions() {
            Properties parameters = operator().getParameters(jobContext.getExecutionId());
            int partitions = Integer.parseInt(parameters.getProperty("partitions"));
            Properties[] properties = new Properties[partitions];
            for (int i = 0; i < partitions; i++) {
                properties[i] = properties("label", "m" + i, "fail",
                        String.valueOf(String.valueOf(i).equals(parameters.getProperty("failOn"))));
                if (parameters.getProperty("big") != null) {
                    properties[i].setProperty("big", "x".repeat(Integer.parseInt(parameters.getProperty("big"))));
                }
            }
            PartitionPlanImpl plan = new PartitionPlanImpl();
            plan.setPartitions(partitions);
            plan.setThreads(1);
            plan.setPartitionProperties(properties);
            plan.setPartitionsOverride(Boolean.parseBoolean(parameters.getProperty("override")));
            return plan;
        }
    }

    static volatile CountDownLatch waiting = new CountDownLatch(2);
    static final AtomicInteger STOP_CALLS = new AtomicInteger();
    static final Queue<BatchStatus> STATUS_AFTER_STOP = new ConcurrentLinkedQueue<>();

    /** Runs until {@code stop()} is called, unless the job parameter {@code release} is true. */
    @Named("waitingPart")
    @Dependent
    static class WaitingPart extends AbstractBatchlet {
        private final CountDownLatch stopped = new CountDownLatch(1);

        @Inject
        JobContext jobContext;

        @Override
        public String process() throws InterruptedException {
            waiting.countDown();
            boolean release = Boolean.parseBoolean(operator().getParameters(jobContext.getExecutionId())
                    .getProperty("release"));
            if (!release && !stopped.await(30, TimeUnit.SECONDS)) {
                return "NOT_STOPPED";
            }
            STATUS_AFTER_STOP.add(jobContext.getBatchStatus());
            return "RELEASED";
        }

        @Override
        public void stop() {
            STOP_CALLS.incrementAndGet();
            stopped.countDown();
        }
    }

    @Inject
    KernelRepository repository;

    @Test
    void aStaticPlanRunsEachPartitionWithItsPropertiesAndContextsOfItsOwn() {
        String run = "planned-" + System.nanoTime();
        JobExecution done = run("planned", properties("run", run, "partitions", "3"));
        assertEquals(BatchStatus.COMPLETED, done.getBatchStatus());
        List<StepExecution> steps = operator().getStepExecutions(done.getExecutionId());
        assertEquals(List.of("split"), steps.stream().map(StepExecution::getStepName).toList(),
                "the partitions' worker step executions are not Jakarta's");
        StepExecution step = steps.get(0);
        assertEquals(BatchStatus.COMPLETED, step.getBatchStatus());
        assertEquals("COMPLETED", step.getExitStatus(), "a partition's exit status is not the step's");
        List<Seen> seen = seen(run);
        assertEquals(Set.of("zero", "one", "two"), seen.stream().map(Seen::label).collect(Collectors.toSet()));
        assertTrue(seen.stream().allMatch(s -> s.stepExecutionId() == step.getStepExecutionId()),
                "each partition's StepContext names the step's execution " + step.getStepExecutionId());
        assertEquals(3, seen.stream().map(s -> System.identityHashCode(s.jobContext())).distinct().count(),
                "each partition has a JobContext of its own");
        assertEquals(3, seen.stream().map(s -> System.identityHashCode(s.stepContext())).distinct().count(),
                "each partition has a StepContext of its own");
        assertTrue(seen.stream().allMatch(s -> s.label().equals(s.jobContext().getTransientUserData())),
                "transient user data is not shared between partitions");
        assertEquals(2, seen.stream().map(Seen::thread).distinct().count(), "threads=\"2\": " + seen);
        assertTrue(seen.stream().allMatch(s -> ("SET_IN_" + s.label()).equals(s.jobContext().getExitStatus())),
                "a partition's JobContext has its exit status");
        assertEquals("COMPLETED", done.getExitStatus(), "which is not the job's");
    }

    @Test
    void partitionsWithoutPropertiesResolveTheirDefault() {
        String run = "defaults-" + System.nanoTime();
        JobExecution done = run("planned", properties("run", run, "partitions", "5"));
        assertEquals(BatchStatus.COMPLETED, done.getBatchStatus());
        assertEquals(List.of("none", "none", "one", "two", "zero"),
                seen(run).stream().map(Seen::label).sorted().toList());
    }

    @Test
    void aRestartOfAStaticPlanRunsOnlyTheFailedPartition() {
        String run = "planned-restart-" + System.nanoTime();
        JobExecution failed = run("planned", properties("run", run, "partitions", "3", "failOne", "true"));
        assertEquals(BatchStatus.FAILED, failed.getBatchStatus());
        assertEquals(BatchStatus.FAILED, operator().getStepExecutions(failed.getExecutionId()).get(0).getBatchStatus());
        SEEN.remove(run);
        JobExecution restarted = ended(operator().restart(failed.getExecutionId(),
                properties("run", run, "partitions", "3", "failOne", "false")));
        assertEquals(BatchStatus.COMPLETED, restarted.getBatchStatus());
        assertEquals(List.of("one"), seen(run).stream().map(Seen::label).toList(),
                "the completed partitions keep their result");
        assertEquals(List.of("split"), stepNames(restarted.getExecutionId()));
    }

    @Test
    void aMapperRestartWithoutOverrideResumesTheStoredPlan() {
        String run = "mapped-resume-" + System.nanoTime();
        JobExecution failed = run("mapped", properties("run", run, "partitions", "3", "failOn", "1"));
        assertEquals(BatchStatus.FAILED, failed.getBatchStatus());
        assertEquals(Set.of("m0", "m1", "m2"), seen(run).stream().map(Seen::label).collect(Collectors.toSet()));
        SEEN.remove(run);
        // the mapper now plans 5 partitions; without override the stored 3 are resumed
        JobExecution restarted = ended(operator().restart(failed.getExecutionId(),
                properties("run", run, "partitions", "5", "override", "false")));
        assertEquals(BatchStatus.COMPLETED, restarted.getBatchStatus());
        assertEquals(List.of("m1"), seen(run).stream().map(Seen::label).toList());
        assertEquals(1, seen(run).stream().map(Seen::thread).distinct().count());
    }

    @Test
    void aMapperRestartWithOverrideRunsTheNewPlanWhole() {
        String run = "mapped-override-" + System.nanoTime();
        JobExecution failed = run("mapped", properties("run", run, "partitions", "3", "failOn", "1"));
        assertEquals(BatchStatus.FAILED, failed.getBatchStatus());
        SEEN.remove(run);
        JobExecution restarted = ended(operator().restart(failed.getExecutionId(),
                properties("run", run, "partitions", "2", "override", "true")));
        assertEquals(BatchStatus.COMPLETED, restarted.getBatchStatus());
        assertEquals(List.of("m0", "m1"), seen(run).stream().map(Seen::label).sorted().toList(),
                "every partition of the new plan ran, also the one that had completed");
    }

    @Test
    void partitionPropertiesOverTheStoredBoundFailTheStep() {
        String run = "big-" + System.nanoTime();
        JobExecution failed = run("mapped", properties("run", run, "partitions", "1", "big", "20000"));
        assertEquals(BatchStatus.FAILED, failed.getBatchStatus());
        assertTrue(seen(run).isEmpty(), "no partition ran");
        String message = QuarkusTransaction.requiringNew().call(() -> repository
                .stepExecutions(JobExecutionId.of(failed.getExecutionId()))).get(0).failure().orElseThrow().message();
        assertTrue(message.contains("the properties of partition 0 of the PartitionPlan of the mapper of step split take")
                && message.contains("more than the 16384 a partition plan entry holds"), message);
    }

    @Test
    void stopCallsTheBatchletOfEveryRunningPartitionAndARestartCompletes() throws InterruptedException {
        waiting = new CountDownLatch(2);
        STOP_CALLS.set(0);
        STATUS_AFTER_STOP.clear();
        String run = "stop-" + System.nanoTime();
        long id = operator().start("waiting-parts", properties("run", run));
        assertTrue(waiting.await(30, TimeUnit.SECONDS), "both partitions run");
        operator().stop(id);
        JobExecution stopped = ended(id);
        assertEquals(BatchStatus.STOPPED, stopped.getBatchStatus());
        assertEquals(2, STOP_CALLS.get(), "stop() of both partitions' batchlets");
        assertEquals(List.of(BatchStatus.STOPPING, BatchStatus.STOPPING), List.copyOf(STATUS_AFTER_STOP),
                "a partition's JobContext sees the stop");
        assertEquals(BatchStatus.STOPPED, operator().getStepExecutions(id).get(0).getBatchStatus());
        assertEquals(List.of("begin", "rollback", "after ROLLBACK"), calls(run), "a stopped step rolls its reducer back");
        JobExecution restarted = ended(operator().restart(id, properties("release", "true", "run", run)));
        assertEquals(BatchStatus.COMPLETED, restarted.getBatchStatus());
    }

    private static List<String> calls(String run) {
        return CALLS.getOrDefault(run, new ConcurrentLinkedQueue<>()).stream().map(c -> c.substring(0, c.indexOf(" @")))
                .toList();
    }

    private static Set<String> threadsOf(String run, String prefix) {
        return CALLS.get(run).stream().filter(c -> c.startsWith(prefix)).map(c -> c.substring(c.indexOf(" @") + 2))
                .collect(Collectors.toSet());
    }

    @Test
    void collectorDataReachesTheAnalyzerOnTheStepsThreadBeforeThePartitionsStatusAndTheReducerBracketsThem() {
        String run = "analyzed-" + System.nanoTime();
        JobExecution done = run("analyzed", properties("run", run, "stepExit", "yes"));
        assertEquals(BatchStatus.COMPLETED, done.getBatchStatus());
        List<String> calls = calls(run);
        assertEquals("begin", calls.get(0), calls.toString());
        assertEquals(List.of("before", "after COMMIT"), calls.subList(calls.size() - 2, calls.size()), calls.toString());
        for (String label : List.of("p0", "p1")) {
            int data = calls.indexOf("data data of " + label + " null");
            int status = calls.indexOf("status COMPLETED PARTITION_" + label);
            assertTrue(data > 0 && data < status, "a partition's data, then its status: " + calls);
        }
        assertEquals(2, calls.stream().filter(c -> c.equals("collect")).count());
        Set<String> mainThreads = threadsOf(run, "data");
        mainThreads.addAll(threadsOf(run, "status"));
        mainThreads.addAll(threadsOf(run, "begin"));
        mainThreads.addAll(threadsOf(run, "after"));
        assertEquals(1, mainThreads.size(), "the analyzer and reducer run on the step's thread: " + CALLS.get(run));
        assertTrue(threadsOf(run, "collect").stream().noneMatch(mainThreads::contains),
                "collectors run on the partitions' threads: " + CALLS.get(run));
        assertEquals("ANALYZED", operator().getStepExecutions(done.getExecutionId()).get(0).getExitStatus(),
                "the exit status set on the step's thread is the step's");
    }

    @Test
    void aFailedPartitionRollsTheReducerBackAndTheStepsExitStatusIsItsBatchStatus() {
        String run = "analyzed-failing-" + System.nanoTime();
        JobExecution failed = run("analyzed", properties("run", run, "fail", "true", "stepExit", "yes"));
        assertEquals(BatchStatus.FAILED, failed.getBatchStatus());
        List<String> calls = calls(run);
        assertTrue(calls.contains("status FAILED FAILED"), calls.toString());
        assertTrue(calls.stream().anyMatch(c -> c.startsWith("data data of p1 java.lang.IllegalStateException")),
                "the collector of a failed partition runs too, and sees its exception: " + calls);
        assertEquals(List.of("rollback", "after ROLLBACK"), calls.subList(calls.size() - 2, calls.size()));
        StepExecution step = operator().getStepExecutions(failed.getExecutionId()).get(0);
        assertEquals(BatchStatus.FAILED, step.getBatchStatus());
        assertEquals("FAILED", step.getExitStatus(), "a failed step exits FAILED, whatever its StepContext says");
    }
}
