package io.durablebatch.jakarta.deployment.test.operator;

import static io.durablebatch.jakarta.deployment.test.operator.Executions.operator;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.properties;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.run;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.step;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

import jakarta.batch.api.AbstractBatchlet;
import jakarta.batch.api.BatchProperty;
import jakarta.batch.api.chunk.AbstractItemReader;
import jakarta.batch.api.chunk.AbstractItemWriter;
import jakarta.batch.api.chunk.listener.AbstractChunkListener;
import jakarta.batch.api.listener.AbstractJobListener;
import jakarta.batch.api.listener.AbstractStepListener;
import jakarta.batch.api.partition.AbstractPartitionReducer;
import jakarta.batch.runtime.BatchStatus;
import jakarta.batch.runtime.JobExecution;
import jakarta.batch.runtime.context.JobContext;
import jakarta.batch.runtime.context.StepContext;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * Step {@code <listeners>} of a partitioned step: its {@code StepListener}s are called once per
 * attempt, on the step's own thread (the job listener's), with the partitioned step's
 * {@code StepContext}, before the reducer begins and after it ends; its chunk listeners are called
 * for each partition's chunks, on the partitions' threads; a {@code beforeStep} that throws fails the
 * step before any partition runs.
 */
class PartitionedStepListenersTest {

    private static final String NS = "xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"2.0\"";

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar
                    .addClasses(Executions.class, ThreadJobListener.class, TrackingStepListener.class,
                            TrackingChunkListener.class, TrackingReducer.class, CountingReader.class, NullWriter.class,
                            TrackingBatchlet.class)
                    .addAsResource(new StringAsset("""
                            <job id="listenedChunks" %s>
                                <listeners><listener ref="threadJobListener"/></listeners>
                                <step id="copy">
                                    <listeners>
                                        <listener ref="trackingStepListener"/>
                                        <listener ref="trackingChunkListener"/>
                                    </listeners>
                                    <chunk item-count="2">
                                        <reader ref="countingReader"/>
                                        <writer ref="nullWriter"/>
                                    </chunk>
                                    <partition>
                                        <plan partitions="3" threads="3"/>
                                        <reducer ref="trackingReducer"/>
                                    </partition>
                                </step>
                            </job>
                            """.formatted(NS)), "META-INF/batch-jobs/listened-chunks.xml")
                    .addAsResource(new StringAsset("""
                            <job id="listenedBatchlets" %s>
                                <listeners><listener ref="threadJobListener"/></listeners>
                                <step id="work">
                                    <listeners>
                                        <listener ref="trackingStepListener">
                                            <properties>
                                                <property name="failBefore" value="#{jobParameters['failBefore']}?:false;"/>
                                            </properties>
                                        </listener>
                                    </listeners>
                                    <batchlet ref="trackingBatchlet"/>
                                    <partition><plan partitions="2"/></partition>
                                </step>
                            </job>
                            """.formatted(NS)), "META-INF/batch-jobs/listened-batchlets.xml"));

    /** What each run did, in the order it happened, by the run's {@code run} parameter. */
    static final Map<String, Queue<String>> EVENTS = new ConcurrentHashMap<>();
    /** The thread the job listener ran on, by run. */
    static final Map<String, Thread> JOB_THREADS = new ConcurrentHashMap<>();
    /** The threads the chunk listener's beforeChunk ran on, by run. */
    static final Map<String, Queue<Thread>> CHUNK_THREADS = new ConcurrentHashMap<>();
    /** The step execution ids the step listener's StepContext reported, by run. */
    static final Map<String, Queue<Long>> STEP_EXECUTION_IDS = new ConcurrentHashMap<>();

    static String runOf(JobContext job) {
        return operator().getParameters(job.getExecutionId()).getProperty("run");
    }

    static void event(JobContext job, String what) {
        EVENTS.computeIfAbsent(runOf(job), r -> new ConcurrentLinkedQueue<>()).add(what);
    }

    static List<String> events(String run) {
        return List.copyOf(EVENTS.getOrDefault(run, new ConcurrentLinkedQueue<>()));
    }

    @Test
    void stepListenersRunOnceOnTheStepsThreadAndChunkListenersInEveryPartition() {
        String run = UUID.randomUUID().toString();
        JobExecution execution = run("listened-chunks", properties("run", run));

        assertEquals(BatchStatus.COMPLETED, execution.getBatchStatus());
        List<String> events = events(run);
        // the StepListener wraps the reducer: beforeStep first, afterStep after the reducer's end
        List<String> around = events.stream().filter(e -> !e.startsWith("beforeChunk") && !e.startsWith("afterChunk"))
                .toList();
        assertEquals(List.of("beforeStep copy on the job's thread", "beginPartitionedStep",
                "beforePartitionedStepCompletion", "afterPartitionedStepCompletion COMMIT",
                "afterStep copy on the job's thread"), around);
        assertEquals(List.of(step(execution.getExecutionId(), "copy").getStepExecutionId(),
                step(execution.getExecutionId(), "copy").getStepExecutionId()),
                List.copyOf(STEP_EXECUTION_IDS.get(run)), "the StepContext of the partitioned step itself");
        // 3 partitions of 3 items, 2 per chunk: 2 chunks each
        assertEquals(6, events.stream().filter(e -> e.startsWith("beforeChunk")).count(), events.toString());
        assertEquals(6, events.stream().filter(e -> e.startsWith("afterChunk")).count(), events.toString());
        assertTrue(CHUNK_THREADS.get(run).stream().noneMatch(JOB_THREADS.get(run)::equals),
                "the chunks ran on the partitions' threads");
    }

    @Test
    void aStepListenerOfAPartitionedBatchletStepRunsOnceAroundItsPartitions() {
        String run = UUID.randomUUID().toString();
        JobExecution execution = run("listened-batchlets", properties("run", run));

        assertEquals(BatchStatus.COMPLETED, execution.getBatchStatus());
        assertEquals(List.of("beforeStep work on the job's thread", "process", "process",
                "afterStep work on the job's thread"), events(run));
    }

    @Test
    void aBeforeStepThatThrowsFailsThePartitionedStepBeforeAnyPartitionRuns() {
        String run = UUID.randomUUID().toString();
        JobExecution execution = run("listened-batchlets", properties("run", run, "failBefore", "true"));

        assertEquals(BatchStatus.FAILED, execution.getBatchStatus());
        assertEquals(BatchStatus.FAILED, step(execution.getExecutionId(), "work").getBatchStatus());
        assertTrue(events(run).stream().noneMatch("process"::equals), events(run).toString());
    }

    /** Keeps its thread in the job's transient user data, as the TCK's thread-tracking listener does. */
    @Named("threadJobListener")
    @Dependent
    static class ThreadJobListener extends AbstractJobListener {
        @Inject
        JobContext jobContext;

        @Override
        public void beforeJob() {
            jobContext.setTransientUserData(Thread.currentThread());
            JOB_THREADS.put(runOf(jobContext), Thread.currentThread());
        }
    }

    @Named("trackingStepListener")
    @Dependent
    static class TrackingStepListener extends AbstractStepListener {
        @Inject
        JobContext jobContext;

        @Inject
        StepContext stepContext;

        @Inject
        @BatchProperty
        String failBefore;

        @Override
        public void beforeStep() {
            if (Boolean.parseBoolean(failBefore)) {
                throw new IllegalStateException("beforeStep refuses");
            }
            track("beforeStep");
        }

        @Override
        public void afterStep() {
            track("afterStep");
        }

        private void track(String callback) {
            // the partitions' JobContexts are copies without the job listener's transient user data
            boolean jobsThread = Thread.currentThread().equals(jobContext.getTransientUserData());
            STEP_EXECUTION_IDS.computeIfAbsent(runOf(jobContext), r -> new ConcurrentLinkedQueue<>())
                    .add(stepContext.getStepExecutionId());
            event(jobContext, callback + " " + stepContext.getStepName() + (jobsThread ? " on the job's thread"
                    : " on " + Thread.currentThread().getName()));
        }
    }

    @Named("trackingChunkListener")
    @Dependent
    static class TrackingChunkListener extends AbstractChunkListener {
        @Inject
        JobContext jobContext;

        @Override
        public void beforeChunk() {
            CHUNK_THREADS.computeIfAbsent(runOf(jobContext), r -> new ConcurrentLinkedQueue<>())
                    .add(Thread.currentThread());
            event(jobContext, "beforeChunk");
        }

        @Override
        public void afterChunk() {
            event(jobContext, "afterChunk");
        }
    }

    @Named("trackingReducer")
    @Dependent
    static class TrackingReducer extends AbstractPartitionReducer {
        @Inject
        JobContext jobContext;

        @Override
        public void beginPartitionedStep() {
            event(jobContext, "beginPartitionedStep");
        }

        @Override
        public void beforePartitionedStepCompletion() {
            event(jobContext, "beforePartitionedStepCompletion");
        }

        @Override
        public void afterPartitionedStepCompletion(PartitionStatus status) {
            event(jobContext, "afterPartitionedStepCompletion " + status);
        }
    }

    /** Three items per partition. */
    @Named("countingReader")
    @Dependent
    static class CountingReader extends AbstractItemReader {
        private int next;

        @Override
        public void open(Serializable checkpoint) {
            next = checkpoint == null ? 0 : (Integer) checkpoint;
        }

        @Override
        public Object readItem() {
            return next < 3 ? next++ : null;
        }

        @Override
        public Serializable checkpointInfo() {
            return next;
        }
    }

    @Named("nullWriter")
    @Dependent
    static class NullWriter extends AbstractItemWriter {
        @Override
        public void writeItems(List<Object> items) {
        }
    }

    @Named("trackingBatchlet")
    @Dependent
    static class TrackingBatchlet extends AbstractBatchlet {
        @Inject
        JobContext jobContext;

        @Override
        public String process() {
            event(jobContext, "process");
            return null;
        }
    }
}
