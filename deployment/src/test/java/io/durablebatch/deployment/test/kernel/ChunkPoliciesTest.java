package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.deployment.test.kernel.KernelTestSupport.call;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.distinctIds;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.freshRun;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.opens;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.rows;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.slowRange;
import static io.durablebatch.job.Steps.chunk;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.LongPredicate;

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
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.item.ItemReader;
import io.durablebatch.item.ItemWriter;
import io.durablebatch.job.CheckpointAlgorithm;
import io.durablebatch.job.ChunkStep;
import io.durablebatch.job.ExceptionFilter;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RetryLimitExceededException;
import io.durablebatch.job.SkipLimitExceededException;
import io.durablebatch.listener.RetryListener;
import io.durablebatch.listener.SkipListener;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Jakarta Batch's chunk policies in the native DSL: skips by exception class with one total limit,
 * user retries with and without rollback and their limit and listeners, and the chunk ends a
 * checkpoint algorithm or a time limit decides.
 */
class ChunkPoliciesTest extends KernelTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, KernelTest.class,
                    KernelTestSupport.class, Jobs.class, ParentException.class, ChildException.class,
                    GrandChildException.class, FlakyException.class, Recorder.class));

    static class ParentException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ParentException(String message) {
            super(message);
        }
    }

    static class ChildException extends ParentException {
        private static final long serialVersionUID = 1L;

        ChildException(String message) {
            super(message);
        }
    }

    static class GrandChildException extends ChildException {
        private static final long serialVersionUID = 1L;

        GrandChildException(String message) {
            super(message);
        }
    }

    static class FlakyException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        FlakyException(String message) {
            super(message);
        }
    }

    /** Where each run fails: "read", "process", "write", "child" (a ChildException in process) → ids. */
    static final Map<String, Map<String, LongPredicate>> FAILING = new ConcurrentHashMap<>();
    /** Failures that fire once per run and id: "run:where:id". */
    static final Set<String> FIRED = ConcurrentHashMap.newKeySet();
    /** What each run's listeners and checkpoint algorithms were told: "run" → events. */
    static final Map<String, Queue<String>> EVENTS = new ConcurrentHashMap<>();

    static void record(String run, String event) {
        EVENTS.computeIfAbsent(run, r -> new ConcurrentLinkedQueue<>()).add(event);
    }

    static List<String> events(String run, String prefix) {
        return EVENTS.getOrDefault(run, new ConcurrentLinkedQueue<>()).stream().filter(e -> e.startsWith(prefix))
                .toList();
    }

    static boolean fails(String run, String where, long id) {
        LongPredicate failing = FAILING.getOrDefault(run, Map.of()).get(where);
        return failing != null && failing.test(id);
    }

    /** Whether a once-only failure at {@code id} is still to fire in this run. */
    static boolean firstTime(String run, String where, long id) {
        return fails(run, where, id) && FIRED.add(run + ":" + where + ":" + id);
    }

    /** Records every skip and retry of a run. */
    static final class Recorder implements SkipListener, RetryListener {
        @Override
        public void onSkipInRead(StepContext step, Exception failure) {
            record(run(step), "skip-read " + failure.getMessage());
        }

        @Override
        public void onSkipInProcess(StepContext step, Object item, Exception failure) {
            record(run(step), "skip-process " + ((Row) item).id());
        }

        @Override
        public void onSkipInWrite(StepContext step, Object item, Exception failure) {
            record(run(step), "skip-write " + ((Row) item).id());
        }

        @Override
        public void onSkipInWrite(StepContext step, List<Object> items, Exception failure) {
            record(run(step),
                    "skip-whole-write " + ((Row) items.get(0)).id() + ".." + ((Row) items.get(items.size() - 1)).id());
        }

        @Override
        public void onRetryRead(StepContext step, Exception failure) {
            record(run(step), "retry-read " + failure.getMessage());
        }

        @Override
        public void onRetryProcess(StepContext step, Object item, Exception failure) {
            record(run(step), "retry-process " + ((Row) item).id());
        }

        @Override
        public void onRetryWrite(StepContext step, List<Object> items, Exception failure) {
            record(run(step), "retry-write " + ((Row) items.get(0)).id() + ".." + ((Row) items.get(items.size() - 1)).id());
        }

        private static String run(StepContext step) {
            return step.parameters().string("run");
        }
    }

    /**
     * Reads the ids [0, size): "read" failures throw ParentException after moving past the id (an
     * unreadable record), "read-once" ones throw FlakyException once before it (a read that
     * succeeds when tried again).
     */
    static ItemReader<Row> failingReader(String run, long size) {
        RangeReader range = new RangeReader(run, size);
        return new ItemReader<>() {
            private long next;

            @Override
            public void open(Optional<Checkpoint> checkpoint) {
                range.open(checkpoint);
                next = checkpoint.map(c -> java.nio.ByteBuffer.wrap(c.bytes()).getLong()).orElse(0L);
            }

            @Override
            public Row read() {
                if (firstTime(run, "read-once", next)) {
                    throw new FlakyException("flaky read of " + next);
                }
                Row row = range.read();
                if (row != null) {
                    next = row.id() + 1;
                    if (fails(run, "read", row.id())) {
                        throw new ParentException("unreadable " + row.id());
                    }
                    if (fails(run, "read-child", row.id())) {
                        throw new ChildException("unreadable child " + row.id());
                    }
                }
                return row;
            }

            @Override
            public Checkpoint checkpoint() {
                return range.checkpoint();
            }
        };
    }

    static Row process(Row row) {
        String run = row.run();
        if (fails(run, "child", row.id())) {
            throw new ChildException("child " + row.id());
        }
        if (fails(run, "parent", row.id())) {
            throw new ParentException("parent " + row.id());
        }
        if (fails(run, "grandchild", row.id())) {
            throw new GrandChildException("grandchild " + row.id());
        }
        if (firstTime(run, "process-once", row.id()) || fails(run, "process-always", row.id())) {
            throw new FlakyException("flaky process of " + row.id());
        }
        return row;
    }

    /** Refuses ids with ParentException ("write") or once with FlakyException ("write-once"), before writing. */
    static ItemWriter<Row> failingWriter(AgroalDataSource dataSource) {
        TargetWriter target = new TargetWriter(dataSource);
        return items -> {
            for (Row row : items) {
                if (fails(row.run(), "write", row.id())) {
                    throw new ParentException("refused " + row.id());
                }
                if (firstTime(row.run(), "write-once", row.id())) {
                    throw new FlakyException("flaky write of " + row.id());
                }
            }
            target.write(items);
        };
    }

    /** A new chunk for each 7 items; tells the run's events of each call. */
    static final class EverySeventh implements CheckpointAlgorithm {
        private final String run;
        private final int timeout;
        private int items;

        EverySeventh(String run, int timeout) {
            this.run = run;
            this.timeout = timeout;
        }

        @Override
        public int checkpointTimeout() {
            return timeout;
        }

        @Override
        public void beginCheckpoint() {
            record(run, "begin");
        }

        @Override
        public boolean isReadyToCheckpoint() {
            return ++items % 7 == 0;
        }

        @Override
        public void endCheckpoint() {
            record(run, "end");
        }
    }

    @Singleton
    static class Jobs {
        @Inject
        AgroalDataSource dataSource;

        private ChunkStep.Builder<Row, Row> policed(int commitInterval, long size) {
            return chunk("load", commitInterval)
                    .reader(context -> failingReader(context.parameters().string("run"), size))
                    .processor(ChunkPoliciesTest::process)
                    .writer(context -> failingWriter(dataSource))
                    .listener(new Recorder());
        }

        private JobDefinition skipping(String name, int skipLimit) {
            return Job.named(name)
                    .start(policed(10, 100)
                            .skippable(ExceptionFilter.including(ParentException.class, GrandChildException.class)
                                    .excluding(ChildException.class))
                            .skipLimit(skipLimit)
                            .build())
                    .build();
        }

        @Produces
        JobDefinition filteredSkips() {
            return skipping("filteredSkips", 40);
        }

        @Produces
        JobDefinition tightFilteredSkips() {
            return skipping("tightFilteredSkips", 39);
        }

        @Produces
        JobDefinition wholeWriteSkips() {
            return Job.named("wholeWriteSkips")
                    .start(policed(10, 50).skippable(ExceptionFilter.including(ParentException.class))
                            .writeSkips(ChunkStep.WriteSkips.WHOLE_WRITE).build())
                    .build();
        }

        @Produces
        JobDefinition retryingWithRollback() {
            return Job.named("retryingWithRollback")
                    .start(policed(10, 50).retryable(ExceptionFilter.including(FlakyException.class)).build())
                    .build();
        }

        @Produces
        JobDefinition retryingInPlace() {
            return Job.named("retryingInPlace")
                    .start(policed(10, 50).retryable(ExceptionFilter.including(FlakyException.class))
                            .noRollback(ExceptionFilter.including(RuntimeException.class)).build())
                    .build();
        }

        @Produces
        JobDefinition retryLimited() {
            return Job.named("retryLimited")
                    .start(policed(10, 50).retryable(ExceptionFilter.including(FlakyException.class)).retryLimit(2)
                            .build())
                    .build();
        }

        @Produces
        JobDefinition retryThenSkip() {
            return Job.named("retryThenSkip")
                    .start(policed(10, 50).retryable(ExceptionFilter.including(FlakyException.class))
                            .skippable(ExceptionFilter.including(FlakyException.class)).build())
                    .build();
        }

        @Produces
        JobDefinition customCheckpoints() {
            return Job.named("customCheckpoints")
                    .start(policed(100, 50)
                            .checkpointAlgorithm(context -> new EverySeventh(context.parameters().string("run"), 0))
                            .build())
                    .build();
        }

        @Produces
        JobDefinition checkpointTimeout() {
            TargetWriter target = new TargetWriter(dataSource);
            return Job.named("checkpointTimeout")
                    .start(chunk("load", 100)
                            .reader(context -> new RangeReader(context.parameters().string("run"), 10))
                            .writer(context -> (List<? extends Row> items) -> {
                                Thread.sleep(2500);
                                target.write(items);
                            })
                            .checkpointAlgorithm(context -> new EverySeventh(context.parameters().string("run"), 1))
                            .build())
                    .build();
        }

        @Produces
        JobDefinition timeLimited() {
            return Job.named("timeLimited")
                    .start(chunk("load", 1000)
                            .reader(context -> slowRange(context.parameters().string("run"), 20, Duration.ofMillis(40)))
                            .writer(context -> new TargetWriter(dataSource))
                            .timeLimit(Duration.ofMillis(200))
                            .build())
                    .build();
        }
    }

    StepExecution onlyStep(JobExecution execution) {
        return RepositoryTestSupport.tx(() -> repository.stepExecutions(execution.id())).get(0);
    }

    /** Read skips at ids ending in 7, process skips at 1 (ParentException) and 2 (GrandChild), write skips at 9. */
    private static String skippingRun() {
        String run = freshRun();
        FAILING.put(run, Map.of("read", id -> id % 10 == 7, "parent", id -> id % 10 == 1, "grandchild",
                id -> id % 10 == 2, "write", id -> id % 10 == 9));
        return run;
    }

    @Test
    void includedClassesAndTheirMoreSpecificIncludesAreSkippedOnReadProcessAndWrite() throws SQLException {
        String run = skippingRun();
        JobExecution execution = operator.runAndWait("filteredSkips", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.COMPLETED, execution.status());
        StepCounters counters = onlyStep(execution).counters();
        assertEquals(10, counters.readSkipCount());
        assertEquals(20, counters.processSkipCount(), "ParentException and GrandChildException (nearer than Child)");
        assertEquals(10, counters.writeSkipCount());
        assertEquals(60, counters.writeCount());
        assertEquals(60, rows(dataSource, run));
        // a chunk's transaction that rolled back to find the refused item reported its skips in both tries
        assertEquals(10, events(run, "skip-read").stream().distinct().count());
        assertEquals(20, events(run, "skip-process").stream().distinct().count());
        // each write skip names the very item the writer refused, found by writing the chunk item by item
        assertEquals(List.of("skip-write 9", "skip-write 19", "skip-write 29", "skip-write 39", "skip-write 49",
                "skip-write 59", "skip-write 69", "skip-write 79", "skip-write 89", "skip-write 99"),
                events(run, "skip-write"));
        // unreadable records do not count in a chunk's 10 items: 90 items in 9 chunks, each with a refused item
        assertEquals(9, counters.rollbackCount(), "each chunk with a refused item rolled back once");
        assertEquals(10, counters.commitCount());
    }

    @Test
    void anExcludedClassIsNotSkippedAndFailsTheStep() throws SQLException {
        String run = freshRun();
        FAILING.put(run, Map.of("child", id -> id == 55, "parent", id -> id == 33));
        JobExecution execution = operator.runAndWait("filteredSkips", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.FAILED, execution.status());
        StepExecution step = onlyStep(execution);
        assertEquals(ChildException.class.getName(), step.failure().orElseThrow().type());
        assertEquals(1, step.counters().processSkipCount(), "the ParentException at 33 was skipped");
        assertEquals(49, rows(dataSource, run), "chunks [0, 50) committed, without 33");
    }

    @Test
    void oneSkipMoreThanTheTotalLimitFailsTheStep() throws SQLException {
        String run = skippingRun();
        JobExecution execution = operator.runAndWait("tightFilteredSkips", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.FAILED, execution.status());
        StepExecution step = onlyStep(execution);
        assertEquals(SkipLimitExceededException.class.getName(), step.failure().orElseThrow().type());
        assertTrue(step.failure().get().message().startsWith("step 'load' exceeded its skip limit of 39 skip(s) in all"),
                step.failure().get().message());
        // the 8 chunks of the ids [0, 89) skipped 35; the last one's 40th skip is the write of 99
        assertEquals(35, step.counters().skipCount(), step.counters().toString());
        assertEquals(8, step.counters().commitCount());
        assertEquals(54, rows(dataSource, run));
    }

    @Test
    void theSkipsOfAChunkWhoseReadsFailAreToldAllTheSame() throws SQLException {
        String run = freshRun();
        FAILING.put(run, Map.of("read", id -> id == 13, "read-child", id -> id == 15));
        JobExecution execution = operator.runAndWait("filteredSkips", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.FAILED, execution.status());
        assertEquals(ChildException.class.getName(), onlyStep(execution).failure().orElseThrow().type());
        assertEquals(List.of("skip-read unreadable 13"), events(run, "skip-read"));
        assertEquals(10, rows(dataSource, run));
    }

    @Test
    void aWholeWriteSkipCommitsTheChunkWithoutItsWriteAndCountsOneSkip() throws SQLException {
        String run = freshRun();
        FAILING.put(run, Map.of("write", id -> id == 15 || id == 33));
        JobExecution execution = operator.runAndWait("wholeWriteSkips", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.COMPLETED, execution.status());
        StepCounters counters = onlyStep(execution).counters();
        assertEquals(2, counters.writeSkipCount(), "one per skipped write");
        assertEquals(30, counters.writeCount());
        assertEquals(0, counters.rollbackCount(), "skipped in the chunk's transaction");
        assertEquals(30, rows(dataSource, run));
        assertEquals(List.of("skip-whole-write 10..19", "skip-whole-write 30..39"), events(run, "skip-whole-write"));
    }

    @Test
    void aRetryWithRollbackReReadsTheChunkAndCommitsItItemByItem() throws SQLException {
        String run = freshRun();
        FAILING.put(run, Map.of("process-once", id -> id == 23));
        JobExecution execution = operator.runAndWait("retryingWithRollback", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.COMPLETED, execution.status());
        StepCounters counters = onlyStep(execution).counters();
        assertEquals(1, counters.rollbackCount());
        // [0, 20) in 2 chunks, [20, 30) in 10 chunks of one item, [30, 50) in 2, and the end of the input
        assertEquals(15, counters.commitCount());
        assertEquals(50, counters.readCount());
        assertEquals(50, counters.writeCount());
        assertEquals(50, distinctIds(dataSource, run));
        assertEquals(List.of("0", "20"), opens(run), "reopened at the last committed chunk");
        assertEquals(List.of("retry-process 23"), events(run, "retry"));
    }

    @Test
    void aReadRetriedWithRollbackIsReadAgainFromTheLastCommittedChunk() throws SQLException {
        String run = freshRun();
        FAILING.put(run, Map.of("read-once", id -> id == 14));
        JobExecution execution = operator.runAndWait("retryingWithRollback", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.COMPLETED, execution.status());
        StepCounters counters = onlyStep(execution).counters();
        assertEquals(1, counters.rollbackCount());
        // [0, 10), the five reads of the failed chunk one per chunk, [15, 45) in 3, [45, 50) with the end
        assertEquals(1 + 5 + 3 + 1, counters.commitCount());
        assertEquals(50, counters.writeCount());
        assertEquals(50, distinctIds(dataSource, run));
        assertEquals(List.of("0", "10"), opens(run));
        assertEquals(List.of("retry-read flaky read of 14"), events(run, "retry"));
    }

    @Test
    void aNoRollbackRetryRepeatsTheFailedOperationInPlace() throws SQLException {
        String run = freshRun();
        FAILING.put(run, Map.of("read-once", id -> id == 12, "process-once", id -> id == 23, "write-once",
                id -> id == 37));
        JobExecution execution = operator.runAndWait("retryingInPlace", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.COMPLETED, execution.status());
        StepCounters counters = onlyStep(execution).counters();
        assertEquals(0, counters.rollbackCount());
        assertEquals(6, counters.commitCount(), "5 chunks of 10 and the end: no chunk was split");
        assertEquals(50, counters.writeCount());
        assertEquals(50, distinctIds(dataSource, run));
        assertEquals(List.of("0"), opens(run), "the reader was never reopened");
        assertEquals(List.of("retry-read flaky read of 12", "retry-process 23", "retry-write 30..39"),
                events(run, "retry"));
    }

    @Test
    void retriesBeyondTheRetryLimitFailTheStep() throws SQLException {
        String run = freshRun();
        FAILING.put(run, Map.of("process-always", id -> id == 23));
        JobExecution execution = operator.runAndWait("retryLimited", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.FAILED, execution.status());
        StepExecution step = onlyStep(execution);
        assertEquals(RetryLimitExceededException.class.getName(), step.failure().orElseThrow().type());
        assertTrue(step.failure().get().message().startsWith("step 'load' exceeded its retry limit of 2: "),
                step.failure().get().message());
        // the first retry committed 20, 21 and 22 one by one; the second and the failure rolled back at 23
        assertEquals(23, rows(dataSource, run));
        assertEquals(3, step.counters().rollbackCount());
        assertEquals(List.of("retry-process 23", "retry-process 23"), events(run, "retry"));
    }

    @Test
    void whileRetryingItemByItemASkippableExceptionIsSkipped() throws SQLException {
        String run = freshRun();
        FAILING.put(run, Map.of("process-always", id -> id == 23));
        JobExecution execution = operator.runAndWait("retryThenSkip", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.COMPLETED, execution.status());
        StepCounters counters = onlyStep(execution).counters();
        assertEquals(1, counters.processSkipCount());
        assertEquals(1, counters.rollbackCount());
        assertEquals(49, rows(dataSource, run));
        assertEquals(List.of("retry-process 23"), events(run, "retry"), "retried once, then skipped");
        assertEquals(List.of("skip-process 23"), events(run, "skip"));
    }

    @Test
    void aCheckpointAlgorithmDecidesWhereChunksEnd() throws SQLException {
        String run = freshRun();
        JobExecution execution = operator.runAndWait("customCheckpoints", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.COMPLETED, execution.status());
        StepCounters counters = onlyStep(execution).counters();
        // 7 chunks of 7 items, then one of 1 that finds the end: the commit interval of 100 is unused
        assertEquals(8, counters.commitCount());
        assertEquals(50, counters.writeCount());
        assertEquals(8, events(run, "begin").size());
        assertEquals(8, events(run, "end").size());
    }

    @Test
    void aCheckpointAlgorithmsTimeoutBoundsTheChunksTransaction() throws SQLException {
        String run = freshRun();
        JobExecution execution = operator.runAndWait("checkpointTimeout", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.FAILED, execution.status(), "the writer outlived the chunk's 1 s transaction");
        assertEquals(0, rows(dataSource, run));
    }

    @Test
    void aTimeLimitEndsChunksBeforeTheirCommitInterval() throws SQLException {
        String run = freshRun();
        JobExecution execution = operator.runAndWait("timeLimited", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.COMPLETED, execution.status());
        StepCounters counters = onlyStep(execution).counters();
        // 20 reads of 40 ms in chunks of at most 200 ms: at least 4 chunks and the end (a slow machine makes more)
        assertTrue(counters.commitCount() >= 5, "commits: " + counters.commitCount());
        assertEquals(20, counters.writeCount());
        assertEquals(20, rows(dataSource, run));
    }
}
