package io.durablebatch.jakarta.deployment.test.operator;

import static io.durablebatch.jakarta.deployment.test.operator.Executions.ended;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.operator;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.properties;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

import jakarta.batch.api.BatchProperty;
import jakarta.batch.api.chunk.AbstractItemReader;
import jakarta.batch.api.chunk.AbstractItemWriter;
import jakarta.batch.api.partition.AbstractPartitionAnalyzer;
import jakarta.batch.api.partition.PartitionCollector;
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
 * {@code <partition>} of chunk steps: each partition reads its own range from
 * {@code #{partitionPlan[...]}}, commits its own checkpoints, and its collector's data reaches the
 * analyzer after each chunk it commits; a restart resumes only the failed partition, from its own
 * last checkpoint.
 */
class PartitionedChunkTest {

    private static final String NS = "xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"2.0\"";

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar
                    .addClasses(Executions.class, RangeReader.class, RangeWriter.class, ChunkCollector.class,
                            ChunkAnalyzer.class)
                    .addAsResource(new StringAsset("""
                            <job id="ranges" %s>
                                <step id="copy">
                                    <chunk item-count="2">
                                        <reader ref="rangeReader">
                                            <properties>
                                                <property name="first" value="#{partitionPlan['first']}"/>
                                                <property name="end" value="#{partitionPlan['end']}"/>
                                                <property name="failAt" value="#{jobParameters['failAt']}?:-1;"/>
                                            </properties>
                                        </reader>
                                        <writer ref="rangeWriter"/>
                                    </chunk>
                                    <partition>
                                        <plan partitions="3" threads="3">
                                            <properties partition="0">
                                                <property name="first" value="0"/><property name="end" value="5"/>
                                            </properties>
                                            <properties partition="1">
                                                <property name="first" value="10"/><property name="end" value="15"/>
                                            </properties>
                                            <properties partition="2">
                                                <property name="first" value="20"/><property name="end" value="25"/>
                                            </properties>
                                        </plan>
                                        <collector ref="chunkCollector"/>
                                        <analyzer ref="chunkAnalyzer"/>
                                    </partition>
                                </step>
                            </job>
                            """.formatted(NS)), "META-INF/batch-jobs/ranges.xml"));

    /** What happened in each run: reads and writes of the partitions, data the analyzer received. */
    static final Map<String, Queue<String>> READ = new ConcurrentHashMap<>();
    static final Map<String, Queue<String>> WRITTEN = new ConcurrentHashMap<>();
    static final Map<String, Queue<String>> ANALYZED = new ConcurrentHashMap<>();
    static final Map<String, Queue<Long>> STEP_EXECUTION_IDS = new ConcurrentHashMap<>();

    static String runOf(JobContext job) {
        return operator().getParameters(job.getExecutionId()).getProperty("run");
    }

    static void add(Map<String, Queue<String>> log, JobContext job, String what) {
        log.computeIfAbsent(runOf(job), r -> new ConcurrentLinkedQueue<>()).add(what);
    }

    static List<String> of(Map<String, Queue<String>> log, String run) {
        return List.copyOf(log.getOrDefault(run, new ConcurrentLinkedQueue<>()));
    }

    /** The analyzer's data of one partition, in the order it arrived. */
    static List<String> analyzed(String run, int first) {
        return of(ANALYZED, run).stream().filter(data -> data.startsWith(first + ":")).toList();
    }

    /** Reads {@code first} up to {@code end}; its checkpoint is the next number; fails reading {@code failAt}. */
    @Named("rangeReader")
    @Dependent
    static class RangeReader extends AbstractItemReader {
        @Inject
        @BatchProperty
        String first;

        @Inject
        @BatchProperty
        String end;

        @Inject
        @BatchProperty
        String failAt;

        @Inject
        JobContext jobContext;

        @Inject
        StepContext stepContext;

        private int next;

        @Override
        public void open(Serializable checkpoint) {
            next = checkpoint == null ? Integer.parseInt(first) : (Integer) checkpoint;
            STEP_EXECUTION_IDS.computeIfAbsent(runOf(jobContext), r -> new ConcurrentLinkedQueue<>())
                    .add(stepContext.getStepExecutionId());
            // the collector reads which partition it collects for from the partition's own StepContext
            stepContext.setTransientUserData(new Progress(Integer.parseInt(first)));
        }

        @Override
        public Object readItem() {
            if (next >= Integer.parseInt(end)) {
                return null;
            }
            if (next == Integer.parseInt(failAt)) {
                throw new IllegalStateException("reading " + next + " fails");
            }
            add(READ, jobContext, String.valueOf(next));
            return next++;
        }

        @Override
        public Serializable checkpointInfo() {
            return next;
        }
    }

    /** A partition's range and what its last write wrote. */
    static final class Progress {
        final int first;
        volatile List<Object> written = List.of();

        Progress(int first) {
            this.first = first;
        }
    }

    @Named("rangeWriter")
    @Dependent
    static class RangeWriter extends AbstractItemWriter {
        @Inject
        JobContext jobContext;

        @Inject
        StepContext stepContext;

        @Override
        public void writeItems(List<Object> items) {
            add(WRITTEN, jobContext, items.toString());
            ((Progress) stepContext.getTransientUserData()).written = List.copyOf(items);
        }
    }

    /** What the partition's last chunk wrote, as "first:items"; an empty chunk collects "first:[]". */
    @Named("chunkCollector")
    @Dependent
    static class ChunkCollector implements PartitionCollector {
        @Inject
        StepContext stepContext;

        @Override
        public Serializable collectPartitionData() {
            Progress progress = (Progress) stepContext.getTransientUserData();
            String data = progress.first + ":" + progress.written;
            progress.written = List.of();
            return data;
        }
    }

    @Named("chunkAnalyzer")
    @Dependent
    static class ChunkAnalyzer extends AbstractPartitionAnalyzer {
        @Inject
        JobContext jobContext;

        @Override
        public void analyzeCollectorData(Serializable data) {
            add(ANALYZED, jobContext, (String) data);
        }
    }

    @Test
    void eachPartitionReadsItsOwnRangeAndItsCollectorsDataReachesTheAnalyzerAfterEachChunk() {
        String run = "ranges-" + System.nanoTime();
        JobExecution done = run("ranges", properties("run", run));
        assertEquals(BatchStatus.COMPLETED, done.getBatchStatus());
        List<StepExecution> steps = operator().getStepExecutions(done.getExecutionId());
        assertEquals(List.of("copy"), steps.stream().map(StepExecution::getStepName).toList(),
                "the partitions' worker step executions are not Jakarta's");
        assertEquals(List.of(0, 1, 2, 3, 4, 10, 11, 12, 13, 14, 20, 21, 22, 23, 24),
                of(READ, run).stream().map(Integer::valueOf).sorted().toList(), "each item read once");
        for (int first : List.of(0, 10, 20)) {
            assertEquals(List.of(first + ":[" + first + ", " + (first + 1) + "]",
                    first + ":[" + (first + 2) + ", " + (first + 3) + "]", first + ":[" + (first + 4) + "]"),
                    analyzed(run, first), "partition " + first + "'s data, once per committed chunk, in order");
        }
        assertTrue(STEP_EXECUTION_IDS.get(run).stream().allMatch(id -> id == steps.get(0).getStepExecutionId()),
                "each partition's StepContext names the step's execution");
        assertEquals(15, metric(steps.get(0), Metric.MetricType.READ_COUNT));
        assertEquals(15, metric(steps.get(0), Metric.MetricType.WRITE_COUNT));
    }

    @Test
    void aRestartResumesOnlyTheFailedPartitionFromItsOwnCheckpoint() {
        String run = "ranges-failing-" + System.nanoTime();
        JobExecution failed = run("ranges", properties("run", run, "failAt", "13"));
        assertEquals(BatchStatus.FAILED, failed.getBatchStatus());
        assertEquals(List.of("10:[10, 11]"), analyzed(run, 10),
                "the failed partition's collector ran after its committed chunk only");
        assertEquals(3, analyzed(run, 0).size());
        assertEquals(3, analyzed(run, 20).size());

        String rerun = run + "-restart";
        JobExecution restarted = ended(operator().restart(failed.getExecutionId(), properties("run", rerun)));
        assertEquals(BatchStatus.COMPLETED, restarted.getBatchStatus());
        assertEquals(List.of("12", "13", "14"), of(READ, rerun),
                "the failed partition resumes after its last committed chunk, the completed ones do not run");
        assertEquals(List.of("[12, 13]", "[14]"), of(WRITTEN, rerun));
        assertEquals(List.of("10:[12, 13]", "10:[14]"), of(ANALYZED, rerun));
        StepExecution step = operator().getStepExecutions(restarted.getExecutionId()).get(0);
        assertEquals(BatchStatus.COMPLETED, step.getBatchStatus());
    }

    private static long metric(StepExecution step, Metric.MetricType type) {
        return Arrays.stream(step.getMetrics()).filter(m -> m.getType() == type).findFirst().orElseThrow().getValue();
    }
}
