package io.durablebatch.jakarta.deployment.test.operator;

import static io.durablebatch.jakarta.deployment.test.operator.Executions.properties;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.run;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.step;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

import jakarta.batch.api.BatchProperty;
import jakarta.batch.api.chunk.AbstractItemReader;
import jakarta.batch.api.chunk.AbstractItemWriter;
import jakarta.batch.api.chunk.CheckpointAlgorithm;
import jakarta.batch.api.chunk.ItemProcessor;
import jakarta.batch.api.chunk.listener.RetryProcessListener;
import jakarta.batch.api.chunk.listener.SkipProcessListener;
import jakarta.batch.runtime.BatchStatus;
import jakarta.batch.runtime.JobExecution;
import jakarta.batch.runtime.Metric;
import jakarta.batch.runtime.StepExecution;
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
 * A JSL {@code <chunk>}'s skip, retry and checkpoint policies run as the kernel's: skippable and
 * retryable classes, skip-limit and retry-limit (written out or of the job parameters), the skip and
 * retry listeners, a custom checkpoint algorithm.
 */
class ChunkPoliciesJobTest {

    private static final String NS = "xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"2.0\"";

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar
                    .addClasses(Executions.class, Reader.class, FailingProcessor.class, Writer.class,
                            PolicyListener.class, EveryTwo.class)
                    .addAsResource(new StringAsset(
                            """
                                    <job id="policed" %s>
                                        <step id="load">
                                            <listeners><listener ref="policyListener"><properties><property name="run" value="#{jobParameters['run']}"/></properties></listener></listeners>
                                            <chunk item-count="4" skip-limit="2">
                                                <reader ref="policyReader"/>
                                                <processor ref="failingProcessor"><properties><property name="run" value="#{jobParameters['run']}"/></properties></processor>
                                                <writer ref="policyWriter"><properties><property name="run" value="#{jobParameters['run']}"/></properties></writer>
                                                <skippable-exception-classes>
                                                    <include class="java.lang.IllegalArgumentException"/>
                                                    <exclude class="java.lang.NumberFormatException"/>
                                                </skippable-exception-classes>
                                                <retryable-exception-classes>
                                                    <include class="java.lang.IllegalStateException"/>
                                                </retryable-exception-classes>
                                            </chunk>
                                        </step>
                                    </job>
                                    """
                                    .formatted(NS)),
                            "META-INF/batch-jobs/policed.xml")
                    .addAsResource(new StringAsset(
                            """
                                    <job id="everyTwo" %s>
                                        <step id="load">
                                            <chunk checkpoint-policy="custom" item-count="100">
                                                <reader ref="policyReader"/>
                                                <writer ref="policyWriter"><properties><property name="run" value="#{jobParameters['run']}"/></properties></writer>
                                                <checkpoint-algorithm ref="everyTwo"/>
                                            </chunk>
                                        </step>
                                    </job>
                                    """
                                    .formatted(NS)),
                            "META-INF/batch-jobs/everyTwo.xml")
                    .addAsResource(new StringAsset(
                            """
                                    <job id="limitedByParameters" %s>
                                        <step id="load">
                                            <listeners><listener ref="policyListener"><properties><property name="run" value="#{jobParameters['run']}"/></properties></listener></listeners>
                                            <chunk item-count="4" skip-limit="#{jobParameters['skipLimit']}"
                                                    retry-limit="#{jobParameters['retryLimit']}">
                                                <reader ref="policyReader"/>
                                                <processor ref="failingProcessor"><properties><property name="run" value="#{jobParameters['run']}"/></properties></processor>
                                                <writer ref="policyWriter"><properties><property name="run" value="#{jobParameters['run']}"/></properties></writer>
                                                <skippable-exception-classes>
                                                    <include class="java.lang.IllegalArgumentException"/>
                                                </skippable-exception-classes>
                                                <retryable-exception-classes>
                                                    <include class="java.lang.IllegalStateException"/>
                                                </retryable-exception-classes>
                                            </chunk>
                                        </step>
                                    </job>
                                    """
                                    .formatted(NS)),
                            "META-INF/batch-jobs/limitedByParameters.xml"));

    @Inject
    KernelRepository repository;

    static final Map<String, Queue<String>> SEEN = new ConcurrentHashMap<>();
    static final Set<String> FIRED = ConcurrentHashMap.newKeySet();

    static void saw(String run, String event) {
        SEEN.computeIfAbsent(run, r -> new ConcurrentLinkedQueue<>()).add(event);
    }

    static List<String> seen(String run, String prefix) {
        return SEEN.getOrDefault(run, new ConcurrentLinkedQueue<>()).stream().filter(e -> e.startsWith(prefix)).toList();
    }

    /** Reads 0 .. 9. */
    @Named("policyReader")
    @Dependent
    static class Reader extends AbstractItemReader {
        int next;

        @Override
        public void open(Serializable checkpoint) {
            next = checkpoint == null ? 0 : (Integer) checkpoint;
        }

        @Override
        public Object readItem() {
            return next < 10 ? next++ : null;
        }

        @Override
        public Serializable checkpointInfo() {
            return next;
        }
    }

    /**
     * Refuses the items of {@code skip} (IllegalArgumentException, or NumberFormatException for 9), fails once at
     * {@code retry}.
     */
    @Named("failingProcessor")
    @Dependent
    static class FailingProcessor implements ItemProcessor {
        @Inject
        @BatchProperty
        String run;

        @Override
        public Object processItem(Object item) {
            String[] parameters = run.split("/");
            int number = (Integer) item;
            if (Arrays.asList(parameters[1].split(",")).contains(String.valueOf(number))) {
                throw number == 9 ? new NumberFormatException("not a number: " + number)
                        : new IllegalArgumentException("refused " + number);
            }
            if (parameters[2].equals(String.valueOf(number)) && FIRED.add(run)) {
                throw new IllegalStateException("flaky " + number);
            }
            return number;
        }
    }

    @Named("policyWriter")
    @Dependent
    static class Writer extends AbstractItemWriter {
        @Inject
        @BatchProperty
        String run;

        @Override
        public void writeItems(List<Object> items) {
            saw(run, "write " + items);
        }
    }

    @Named("policyListener")
    @Dependent
    static class PolicyListener implements SkipProcessListener, RetryProcessListener {
        @Inject
        @BatchProperty
        String run;

        @Override
        public void onSkipProcessItem(Object item, Exception ex) {
            saw(run, "skip " + item);
        }

        @Override
        public void onRetryProcessException(Object item, Exception ex) {
            saw(run, "retry " + item + " " + ex.getMessage());
        }
    }

    /** A chunk for every two items. */
    @Named("everyTwo")
    @Dependent
    static class EveryTwo implements CheckpointAlgorithm {
        int items;

        @Override
        public int checkpointTimeout() {
            return 0;
        }

        @Override
        public void beginCheckpoint() {
        }

        @Override
        public boolean isReadyToCheckpoint() {
            return ++items % 2 == 0;
        }

        @Override
        public void endCheckpoint() {
        }
    }

    private static long metric(StepExecution step, Metric.MetricType type) {
        return Arrays.stream(step.getMetrics()).filter(m -> m.getType() == type).findFirst().orElseThrow().getValue();
    }

    /** A run's parameter: "id/skipped items/retried item". */
    private static JobExecution start(String job, String run) {
        return run(job, properties("run", run));
    }

    @Test
    void skippableItemsAreSkippedAndARetryableOneIsRetriedItemByItem() {
        String run = "a" + System.nanoTime() + "/1,2/6";
        JobExecution execution = start("policed", run);
        assertEquals(BatchStatus.COMPLETED, execution.getBatchStatus());
        StepExecution step = step(execution.getExecutionId(), "load");
        assertEquals(2, metric(step, Metric.MetricType.PROCESS_SKIP_COUNT));
        assertEquals(1, metric(step, Metric.MetricType.ROLLBACK_COUNT));
        assertEquals(List.of("skip 1", "skip 2"), seen(run, "skip"));
        assertEquals(List.of("retry 6 flaky 6"), seen(run, "retry"));
        // [0, 4) less the skips, then the chunk [4, 8) rolled back at 6 and committed item by item
        assertEquals(List.of("write [0, 3]", "write [4]", "write [5]", "write [6]", "write [7]", "write [8, 9]"),
                seen(run, "write"));
    }

    @Test
    void aSkipBeyondTheSkipLimitFailsTheStep() {
        String run = "b" + System.nanoTime() + "/1,2,3/-";
        JobExecution execution = start("policed", run);
        assertEquals(BatchStatus.FAILED, execution.getBatchStatus());
        assertTrue(seen(run, "write").isEmpty(), "the first chunk failed: " + seen(run, "write"));
    }

    @Test
    void anExcludedClassIsNotSkipped() {
        String run = "c" + System.nanoTime() + "/9/-";
        JobExecution execution = start("policed", run);
        assertEquals(BatchStatus.FAILED, execution.getBatchStatus());
        assertEquals(List.of("write [0, 1, 2, 3]", "write [4, 5, 6, 7]"), seen(run, "write"));
    }

    private static JobExecution limited(String run, String skipLimit, String retryLimit) {
        return run("limitedByParameters", properties("run", run, "skipLimit", skipLimit, "retryLimit", retryLimit));
    }

    @Test
    void aSkipLimitOfTheParametersIsResolvedByEachExecution() {
        String tight = "e" + System.nanoTime() + "/1,2/-";
        assertEquals(BatchStatus.FAILED, limited(tight, "1", "5").getBatchStatus(), "the second skip is one too many");
        assertTrue(seen(tight, "write").isEmpty(), "the first chunk failed: " + seen(tight, "write"));
        String enough = "f" + System.nanoTime() + "/1,2/-";
        JobExecution completed = limited(enough, "2", "5");
        assertEquals(BatchStatus.COMPLETED, completed.getBatchStatus());
        assertEquals(2, metric(step(completed.getExecutionId(), "load"), Metric.MetricType.PROCESS_SKIP_COUNT));
        assertEquals(List.of("skip 1", "skip 2"), seen(enough, "skip"));
    }

    @Test
    void aRetryLimitOfTheParametersIsResolvedByEachExecution() {
        String none = "g" + System.nanoTime() + "/-/6";
        assertEquals(BatchStatus.FAILED, limited(none, "5", "0").getBatchStatus(), "no retry is left for 6");
        assertEquals(List.of("write [0, 1, 2, 3]"), seen(none, "write"));
        String one = "h" + System.nanoTime() + "/-/6";
        assertEquals(BatchStatus.COMPLETED, limited(one, "5", "1").getBatchStatus());
        assertEquals(List.of("retry 6 flaky 6"), seen(one, "retry"));
    }

    @Test
    void aLimitResolvingToNoNumberFailsTheStepNamingTheAttribute() {
        String run = "i" + System.nanoTime() + "/-/-";
        JobExecution failed = limited(run, "many", "1");
        assertEquals(BatchStatus.FAILED, failed.getBatchStatus());
        assertTrue(seen(run, "write").isEmpty(), "the step never read");
        String message = QuarkusTransaction.requiringNew().call(() -> repository
                .stepExecutions(JobExecutionId.of(failed.getExecutionId()))).get(0).failure().orElseThrow().message();
        assertEquals(
                "skip-limit=\"#{jobParameters['skipLimit']}\" of step load of job limitedByParameters resolves to \"many\", "
                        + "no number of 0 or more",
                message);
    }

    @Test
    void aCustomCheckpointAlgorithmEndsTheChunks() {
        String run = "d" + System.nanoTime() + "/-/-";
        JobExecution execution = start("everyTwo", run);
        assertEquals(BatchStatus.COMPLETED, execution.getBatchStatus());
        assertEquals(List.of("write [0, 1]", "write [2, 3]", "write [4, 5]", "write [6, 7]", "write [8, 9]"),
                seen(run, "write"));
        assertEquals(6, metric(step(execution.getExecutionId(), "load"), Metric.MetricType.COMMIT_COUNT),
                "five chunks and the one that finds the end");
    }
}
