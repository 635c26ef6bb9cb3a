package io.durablebatch.jakarta.deployment.test.operator;

import static io.durablebatch.jakarta.deployment.test.operator.Executions.ended;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.operator;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.properties;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.run;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.step;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

import jakarta.batch.api.AbstractBatchlet;
import jakarta.batch.api.BatchProperty;
import jakarta.batch.api.chunk.AbstractItemReader;
import jakarta.batch.api.chunk.AbstractItemWriter;
import jakarta.batch.api.chunk.ItemProcessor;
import jakarta.batch.api.chunk.listener.ChunkListener;
import jakarta.batch.api.chunk.listener.ItemProcessListener;
import jakarta.batch.api.chunk.listener.ItemReadListener;
import jakarta.batch.api.chunk.listener.ItemWriteListener;
import jakarta.batch.api.listener.StepListener;
import jakarta.batch.operations.JobStartException;
import jakarta.batch.runtime.BatchStatus;
import jakarta.batch.runtime.JobExecution;
import jakarta.batch.runtime.Metric;
import jakarta.batch.runtime.StepExecution;
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
 * JSL {@code <chunk>} steps on PostgreSQL: reads, processing (a null filters the item), writes in
 * chunks of {@code item-count}, metrics, restart from the reader's and writer's
 * {@code checkpointInfo()} with the persistent user data, and step-level {@code <listeners>} (their
 * order, a listener that throws, a batchlet step's step listener).
 */
class ChunkJobTest {

    private static final String NS = "xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"2.0\"";

    private static final String NUMBERS = """
            <job id="numbers" %s>
                <properties><property name="itemCount" value="3"/></properties>
                <step id="count">
                    <listeners>
                        <listener ref="recordingListener">
                            <properties><property name="throwIn" value="#{jobParameters['throwIn']}"/></properties>
                        </listener>
                    </listeners>
                    <chunk item-count="#{jobProperties['itemCount']}">
                        <reader ref="numberReader">
                            <properties>
                                <property name="count" value="#{jobParameters['count']}"/>
                                <property name="failAt" value="#{jobParameters['failAt']}?:-1;"/>
                            </properties>
                        </reader>
                        <processor ref="doublingProcessor"/>
                        <writer ref="listWriter">
                            <properties><property name="padding" value="#{jobParameters['padding']}?:0;"/></properties>
                        </writer>
                    </chunk>
                </step>
            </job>
            """;

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar
                    .addClasses(Executions.class, NumberReader.class, DoublingProcessor.class, ListWriter.class,
                            RecordingListener.class, ContextBatchlet.class)
                    .addAsResource(new StringAsset(NUMBERS.formatted(NS)), "META-INF/batch-jobs/numbers.xml")
                    .addAsResource(new StringAsset(
                            """
                                    <job id="listenedBatchlet" %s>
                                        <step id="only">
                                            <listeners>
                                                <listener ref="recordingListener">
                                                    <properties><property name="throwIn" value="#{jobParameters['throwIn']}"/></properties>
                                                </listener>
                                            </listeners>
                                            <batchlet ref="contextBatchlet"/>
                                        </step>
                                    </job>
                                    """
                                    .formatted(NS)),
                            "META-INF/batch-jobs/listenedBatchlet.xml")
                    .addAsResource(new StringAsset("""
                            <job id="skipping" %s>
                                <step id="load">
                                    <chunk checkpoint-policy="#{jobParameters['policy']}">
                                        <reader ref="numberReader"/>
                                        <writer ref="listWriter"/>
                                    </chunk>
                                </step>
                            </job>
                            """.formatted(NS)), "META-INF/batch-jobs/skipping.xml")
                    .addAsResource(new StringAsset("""
                            <job id="steeredChunk" %s>
                                <step id="load">
                                    <chunk item-count="#{jobParameters['size']}">
                                        <reader ref="numberReader">
                                            <properties>
                                                <property name="count" value="#{jobParameters['count']}"/>
                                                <property name="failAt" value="-1"/>
                                            </properties>
                                        </reader>
                                        <writer ref="listWriter"/>
                                    </chunk>
                                </step>
                            </job>
                            """.formatted(NS)), "META-INF/batch-jobs/steeredChunk.xml"));

    /** What the artifacts of each run did, by the {@code run} job parameter. */
    static final Map<String, Queue<String>> SEEN = new ConcurrentHashMap<>();
    /** What each run's writer wrote, over all its executions. */
    static final Map<String, Queue<Object>> WRITTEN = new ConcurrentHashMap<>();

    static void saw(String run, String entry) {
        SEEN.computeIfAbsent(run, key -> new ConcurrentLinkedQueue<>()).add(entry);
    }

    static List<String> seen(String run) {
        return List.copyOf(SEEN.getOrDefault(run, new ConcurrentLinkedQueue<>()));
    }

    static String runOf(JobContext job) {
        return operator().getParameters(job.getExecutionId()).getProperty("run");
    }

    /** Reads 0..count-1; its checkpoint is the next number; throws reading {@code failAt}. */
    @Named("numberReader")
    @Dependent
    static class NumberReader extends AbstractItemReader {
        @Inject
        @BatchProperty
        String count;

        @Inject
        @BatchProperty
        String failAt;

        @Inject
        JobContext job;

        @Inject
        StepContext step;

        int next;

        @Override
        public void open(Serializable checkpoint) {
            next = checkpoint == null ? 0 : (Integer) checkpoint;
            saw(runOf(job), "reader open@" + checkpoint + " data=" + step.getPersistentUserData());
            if (step.getPersistentUserData() == null) {
                step.setPersistentUserData("opened");
            }
        }

        @Override
        public Object readItem() {
            if (next == Integer.parseInt(failAt)) {
                throw new IllegalStateException("cannot read " + next);
            }
            return next < Integer.parseInt(count) ? next++ : null;
        }

        @Override
        public Serializable checkpointInfo() {
            return next;
        }
    }

    /** Doubles an item; filters the multiples of 3 out. */
    @Named("doublingProcessor")
    @Dependent
    static class DoublingProcessor implements ItemProcessor {
        @Override
        public Object processItem(Object item) {
            int number = (Integer) item;
            return number % 3 == 0 ? null : number * 2;
        }
    }

    /** Keeps what it wrote; its checkpoint is how many (padded on demand); the step's data says so too. */
    @Named("listWriter")
    @Dependent
    static class ListWriter extends AbstractItemWriter {
        @Inject
        @BatchProperty
        String padding;

        @Inject
        JobContext job;

        @Inject
        StepContext step;

        int written;

        @Override
        public void open(Serializable checkpoint) {
            written = checkpoint == null ? 0 : (Integer) ((Object[]) checkpoint)[0];
            saw(runOf(job), "writer open@" + written);
        }

        @Override
        public void writeItems(List<Object> items) {
            WRITTEN.computeIfAbsent(runOf(job), key -> new ConcurrentLinkedQueue<>()).addAll(items);
            written += items.size();
            step.setPersistentUserData("written " + written);
        }

        @Override
        public Serializable checkpointInfo() {
            return new Object[] { written, new byte[padding == null ? 0 : Integer.parseInt(padding)] };
        }
    }

    /** Records each callback; throws in the one its {@code throwIn} property names. */
    @Named("recordingListener")
    @Dependent
    static class RecordingListener
            implements StepListener, ChunkListener, ItemReadListener, ItemProcessListener, ItemWriteListener {
        @Inject
        @BatchProperty
        String throwIn;

        @Inject
        JobContext job;

        @Inject
        StepContext step;

        private void saw(String callback) throws Exception {
            ChunkJobTest.saw(runOf(job), callback);
            if (throwIn != null && !throwIn.isEmpty() && callback.startsWith(throwIn)) {
                throw new Exception("listener refuses " + callback);
            }
        }

        @Override
        public void beforeStep() throws Exception {
            saw("beforeStep");
        }

        @Override
        public void afterStep() throws Exception {
            Exception failure = step.getException();
            saw("afterStep data=" + step.getTransientUserData()
                    + (failure == null ? "" : " exception=" + failure.getMessage()));
        }

        @Override
        public void beforeChunk() throws Exception {
            saw("beforeChunk");
        }

        @Override
        public void onError(Exception failure) throws Exception {
            saw("onError " + failure.getMessage());
        }

        @Override
        public void afterChunk() throws Exception {
            saw("afterChunk " + metric(Metric.MetricType.COMMIT_COUNT));
        }

        private long metric(Metric.MetricType type) {
            return Arrays.stream(step.getMetrics()).filter(m -> m.getType() == type).findFirst().orElseThrow().getValue();
        }

        @Override
        public void beforeRead() throws Exception {
            saw("beforeRead");
        }

        @Override
        public void afterRead(Object item) throws Exception {
            saw("afterRead " + item);
        }

        @Override
        public void onReadError(Exception failure) throws Exception {
            saw("onReadError " + failure.getMessage());
        }

        @Override
        public void beforeProcess(Object item) throws Exception {
            saw("beforeProcess " + item);
        }

        @Override
        public void afterProcess(Object item, Object result) throws Exception {
            saw("afterProcess " + item + "->" + result);
        }

        @Override
        public void onProcessError(Object item, Exception failure) throws Exception {
            saw("onProcessError " + item);
        }

        @Override
        public void beforeWrite(List<Object> items) throws Exception {
            saw("beforeWrite " + items);
        }

        @Override
        public void afterWrite(List<Object> items) throws Exception {
            saw("afterWrite " + items);
        }

        @Override
        public void onWriteError(List<Object> items, Exception failure) throws Exception {
            saw("onWriteError " + items);
        }
    }

    @Named("contextBatchlet")
    @Dependent
    static class ContextBatchlet extends AbstractBatchlet {
        @Inject
        StepContext step;

        @Override
        public String process() {
            step.setTransientUserData("set by the batchlet");
            return "DONE";
        }
    }

    private static long metric(StepExecution step, Metric.MetricType type) {
        return Arrays.stream(step.getMetrics()).filter(m -> m.getType() == type).findFirst().orElseThrow().getValue();
    }

    private static List<Object> written(String run) {
        return List.copyOf(WRITTEN.getOrDefault(run, new ConcurrentLinkedQueue<>()));
    }

    @Test
    void itemsAreReadProcessedAndWrittenInChunksOfItemCount() {
        JobExecution execution = run("numbers", properties("run", "plain", "count", "7"));
        assertEquals(BatchStatus.COMPLETED, execution.getBatchStatus());
        assertEquals(List.of(2, 4, 8, 10), written("plain"), "0, 3 and 6 were filtered out");
        StepExecution step = step(execution.getExecutionId(), "count");
        assertEquals("COMPLETED", step.getExitStatus());
        assertEquals(7, metric(step, Metric.MetricType.READ_COUNT));
        assertEquals(4, metric(step, Metric.MetricType.WRITE_COUNT));
        assertEquals(3, metric(step, Metric.MetricType.FILTER_COUNT));
        assertEquals(3, metric(step, Metric.MetricType.COMMIT_COUNT), "chunks of 3, 3 and 1 items");
        assertEquals(0, metric(step, Metric.MetricType.ROLLBACK_COUNT));
        assertEquals("written 4", step.getPersistentUserData());
    }

    @Test
    void aRestartResumesFromTheReadersAndWritersCheckpointWithThePersistentUserData() {
        JobExecution failed = run("numbers", properties("run", "restart", "count", "10", "failAt", "7"));
        assertEquals(BatchStatus.FAILED, failed.getBatchStatus());
        StepExecution failedStep = step(failed.getExecutionId(), "count");
        assertEquals(6, metric(failedStep, Metric.MetricType.READ_COUNT), "two chunks of 3 committed");
        assertEquals(0, metric(failedStep, Metric.MetricType.ROLLBACK_COUNT),
                "the read failed before the chunk's transaction began: nothing was rolled back");
        assertEquals("written 4", failedStep.getPersistentUserData());
        assertEquals(List.of(2, 4, 8, 10), written("restart"));

        JobExecution restarted = ended(operator().restart(failed.getExecutionId(),
                properties("run", "restart", "count", "10")));
        assertEquals(BatchStatus.COMPLETED, restarted.getBatchStatus());
        assertEquals(List.of(2, 4, 8, 10, 14, 16), written("restart"), "every item once, in order (6 and 9 filtered)");
        List<String> opens = seen("restart").stream().filter(s -> s.contains(" open@")).toList();
        assertEquals(List.of("reader open@null data=null", "writer open@0", "reader open@6 data=written 4",
                "writer open@4"), opens);
        assertEquals("written 6", step(restarted.getExecutionId(), "count").getPersistentUserData());
    }

    @Test
    void listenersAreCalledInTheSpecificationsOrder() {
        JobExecution execution = run("numbers", properties("run", "ordered", "count", "4"));
        assertEquals(BatchStatus.COMPLETED, execution.getBatchStatus());
        assertEquals(List.of("beforeStep",
                "beforeChunk", "beforeRead", "afterRead 0", "beforeRead", "afterRead 1", "beforeRead", "afterRead 2",
                "beforeProcess 0", "afterProcess 0->null", "beforeProcess 1", "afterProcess 1->2", "beforeProcess 2",
                "afterProcess 2->4", "beforeWrite [2, 4]", "afterWrite [2, 4]", "afterChunk 1",
                "beforeChunk", "beforeRead", "afterRead 3", "beforeRead", "beforeProcess 3", "afterProcess 3->null",
                "afterChunk 2",
                "afterStep data=null"),
                seen("ordered").stream().filter(s -> !s.contains(" open@")).toList());
    }

    @Test
    void aListenerThatThrowsFailsTheStepAndIsTheStepsException() {
        JobExecution execution = run("numbers", properties("run", "throwing", "count", "4", "throwIn", "beforeWrite"));
        assertEquals(BatchStatus.FAILED, execution.getBatchStatus());
        assertEquals(List.of(), written("throwing"), "the chunk rolled back before its write");
        List<String> seen = seen("throwing");
        assertTrue(seen.contains("onError listener refuses beforeWrite [2, 4]"), seen.toString());
        assertEquals("afterStep data=null exception=listener refuses beforeWrite [2, 4]", seen.get(seen.size() - 1));
    }

    @Test
    void aReadFailureIsTheStepsException() {
        JobExecution execution = run("numbers", properties("run", "unreadable", "count", "4", "failAt", "1"));
        assertEquals(BatchStatus.FAILED, execution.getBatchStatus());
        List<String> seen = seen("unreadable");
        assertTrue(seen.containsAll(List.of("onReadError cannot read 1", "onError cannot read 1")), seen.toString());
        assertEquals("afterStep data=null exception=cannot read 1", seen.get(seen.size() - 1));
        assertEquals("opened", step(execution.getExecutionId(), "count").getPersistentUserData(),
                "the persistent user data is kept when the step fails, though no chunk committed");
    }

    @Test
    void aCheckpointOverTheBoundFailsTheStepSayingWhy() {
        JobExecution execution = run("numbers", properties("run", "oversized", "count", "4", "padding", "70000"));
        assertEquals(BatchStatus.FAILED, execution.getBatchStatus());
        String afterStep = seen("oversized").get(seen("oversized").size() - 1);
        assertTrue(afterStep.contains("the checkpoint of step count of job numbers is ")
                && afterStep.contains("more than the 65536 bytes a checkpoint may hold"), afterStep);
    }

    @Test
    void aBatchletStepsListenerSharesItsStepContext() {
        JobExecution execution = run("listenedBatchlet", properties("run", "batchlet"));
        assertEquals(BatchStatus.COMPLETED, execution.getBatchStatus());
        assertEquals(List.of("beforeStep", "afterStep data=set by the batchlet"), seen("batchlet"));
    }

    @Test
    void aBeforeStepThatThrowsFailsTheStepBeforeItsBatchletRuns() {
        JobExecution execution = run("listenedBatchlet", properties("run", "refused", "throwIn", "beforeStep"));
        assertEquals(BatchStatus.FAILED, execution.getBatchStatus());
        assertEquals(List.of("beforeStep", "afterStep data=null exception=listener refuses beforeStep"), seen("refused"),
                "the batchlet never ran, afterStep still did");
    }

    @Test
    void aCheckpointPolicyOfTheParametersIsRefusedAtStart() {
        JobStartException refused = assertThrows(JobStartException.class,
                () -> operator().start("skipping", properties("run", "skipping")));
        assertTrue(refused.getMessage().startsWith("job XML skipping cannot run: META-INF/batch-jobs/skipping.xml line 3: "
                + "<chunk>: checkpoint-policy=\"#{jobParameters['policy']}\" is a substitution"), refused.getMessage());
    }

    @Test
    void anItemCountOfTheParametersIsResolvedByEachExecution() {
        JobExecution execution = run("steeredChunk", properties("run", "steered", "size", "2", "count", "5"));
        assertEquals(BatchStatus.COMPLETED, execution.getBatchStatus());
        assertEquals(3, metric(step(execution.getExecutionId(), "load"), Metric.MetricType.COMMIT_COUNT),
                "chunks of 2, 2 and 1 items");
        JobExecution refused = run("steeredChunk", properties("run", "steeredBadly", "size", "none", "count", "5"));
        assertEquals(BatchStatus.FAILED, refused.getBatchStatus());
    }
}
