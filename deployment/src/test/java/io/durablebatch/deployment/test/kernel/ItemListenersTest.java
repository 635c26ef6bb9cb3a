package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.deployment.test.kernel.KernelTestSupport.call;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.freshRun;
import static io.durablebatch.job.Steps.chunk;
import static io.durablebatch.job.Steps.tasklet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import jakarta.annotation.Priority;
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
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.item.ItemReader;
import io.durablebatch.item.ItemWriter;
import io.durablebatch.job.ChunkStep;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.job.Step;
import io.durablebatch.listener.BatchListener;
import io.durablebatch.listener.ChunkEvent;
import io.durablebatch.listener.ChunkListener;
import io.durablebatch.listener.ItemProcessListener;
import io.durablebatch.listener.ItemReadListener;
import io.durablebatch.listener.ItemWriteListener;
import io.durablebatch.listener.SkipListener;
import io.durablebatch.listener.StepEvent;
import io.durablebatch.listener.StepListener;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.runtime.job.KernelListeners;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Item read, process and write listeners, as CDI beans and on the definition: where each callback
 * runs relative to the chunk's transaction, their order per item and per chunk, the item(s) and
 * exception each error callback gets (skipped or failing the step), what a retried or rescanned
 * chunk and a restart call again, what a listener that throws does, and that an attempt no item
 * listener applies to has no item callbacks at all. Each listener records "name.callback args tx"
 * (or "no tx") per run; its step listener side learns the run as the attempt starts.
 */
class ItemListenersTest extends KernelTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, KernelTest.class,
                    KernelTestSupport.class, Jobs.class, Faults.class, ItemRecorder.class, Low.class, High.class,
                    Other.class));

    /** The events of each run, in the order they happened. */
    static final Map<String, Queue<String>> EVENTS = new ConcurrentHashMap<>();

    /** The failures each run's reader, processor and writer inject. */
    static final Map<String, Faults> FAULTS = new ConcurrentHashMap<>();

    /**
     * Ids the reader cannot read, the processor cannot process, the writer refuses, the processor
     * filters out, and at which the writer fails once transiently.
     */
    record Faults(Set<Long> read, Set<Long> process, Set<Long> write, Set<Long> filter, Set<Long> transientOnce) {

        static final Faults NONE = new Faults(Set.of(), Set.of(), Set.of(), Set.of(), Set.of());

        static Faults of(String run) {
            return FAULTS.getOrDefault(run, NONE);
        }
    }

    static List<String> events(String run) {
        return List.copyOf(EVENTS.getOrDefault(run, new ConcurrentLinkedQueue<>()));
    }

    /** The events of the listener {@code name}. */
    static List<String> events(String run, String name) {
        return events(run).stream().filter(event -> event.startsWith(name + ".")).toList();
    }

    /** The listeners that heard {@code callback} ("beforeProcess 0 tx"), in the order they heard it. */
    static List<String> callers(String run, String callback) {
        return events(run).stream().filter(event -> event.endsWith("." + callback))
                .map(event -> event.substring(0, event.indexOf('.'))).toList();
    }

    static String id(Object item) {
        return String.valueOf(item instanceof Row row ? row.id() : item);
    }

    static String ids(List<?> items) {
        return items.stream().map(ItemListenersTest::id).collect(Collectors.joining(", ", "[", "]"));
    }

    static String ids(long from, long to) {
        return LongStream.range(from, to).mapToObj(String::valueOf).collect(Collectors.joining(", ", "[", "]"));
    }

    /**
     * Records every item, chunk and skip callback; throws in the callback the run's "mode" names
     * ("X.beforeProcess 7": listener X, for item 7).
     */
    static class ItemRecorder implements StepListener, ChunkListener, SkipListener, ItemReadListener,
            ItemProcessListener, ItemWriteListener {
        final String name;
        /** The one job this listener applies to as a CDI bean; {@code null}: every job. */
        final String jobOnly;
        volatile String run;
        volatile String mode;

        ItemRecorder(String name) {
            this(name, null);
        }

        ItemRecorder(String name, String jobOnly) {
            this.name = name;
            this.jobOnly = jobOnly;
        }

        @Override
        public boolean appliesTo(JobName job) {
            return jobOnly == null || job.value().equals(jobOnly);
        }

        private void record(String callback) {
            EVENTS.computeIfAbsent(run, r -> new ConcurrentLinkedQueue<>())
                    .add(name + "." + callback + (QuarkusTransaction.isActive() ? " tx" : " no tx"));
            if ((name + "." + callback).equals(mode)) {
                throw new IllegalStateException(name + " throws in " + callback);
            }
        }

        @Override
        public void beforeStep(StepEvent step) {
            run = step.context().parameters().string("run");
            mode = step.context().parameters().string("mode");
        }

        @Override
        public void beforeChunk(ChunkEvent chunk) {
            record("beforeChunk#" + chunk.number());
        }

        @Override
        public void afterChunk(ChunkEvent chunk) {
            record("afterChunk#" + chunk.number());
        }

        @Override
        public void onChunkError(ChunkEvent chunk, Throwable failure) {
            String suppressed = Arrays.stream(failure.getSuppressed()).map(Throwable::getMessage)
                    .collect(Collectors.joining(", "));
            record("onChunkError#" + chunk.number() + " items " + chunk.items() + " " + failure.getMessage()
                    + (suppressed.isEmpty() ? "" : " (suppressed: " + suppressed + ")"));
        }

        @Override
        public void onSkipInRead(StepContext step, Exception failure) {
            record("onSkipInRead " + failure.getMessage());
        }

        @Override
        public void onSkipInProcess(StepContext step, Object item, Exception failure) {
            record("onSkipInProcess " + id(item) + " " + failure.getMessage());
        }

        @Override
        public void onSkipInWrite(StepContext step, Object item, Exception failure) {
            record("onSkipInWrite " + id(item) + " " + failure.getMessage());
        }

        @Override
        public void beforeRead() {
            record("beforeRead");
        }

        @Override
        public void afterRead(Object item) {
            record("afterRead " + id(item));
        }

        @Override
        public void onReadError(Exception failure) {
            record("onReadError " + failure.getMessage());
        }

        @Override
        public void beforeProcess(Object item) {
            record("beforeProcess " + id(item));
        }

        @Override
        public void afterProcess(Object item, Object result) {
            record("afterProcess " + id(item) + " -> " + id(result));
        }

        @Override
        public void onProcessError(Object item, Exception failure) {
            record("onProcessError " + id(item) + " " + failure.getMessage());
        }

        @Override
        public void beforeWrite(List<?> items) {
            record("beforeWrite " + ids(items));
            if ((name + ".clear").equals(mode)) {
                items.clear();
            }
        }

        @Override
        public void afterWrite(List<?> items) {
            record("afterWrite " + ids(items));
        }

        @Override
        public void onWriteError(List<?> items, Exception failure) {
            record("onWriteError " + ids(items) + " " + failure.getMessage());
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** A CDI bean of priority 10, for job "items" only: called first, and last in "after" callbacks. */
    @Singleton
    @Priority(10)
    static class Low extends ItemRecorder {
        Low() {
            super("Low", "items");
        }
    }

    /** A CDI bean of priority 20, for job "items" only. */
    @Singleton
    @Priority(20)
    static class High extends ItemRecorder {
        High() {
            super("High", "items");
        }
    }

    /** A CDI bean for job "skipping" only. */
    @Singleton
    static class Other extends ItemRecorder {
        Other() {
            super("Other", "skipping");
        }
    }

    @Singleton
    static class Jobs {
        @Inject
        AgroalDataSource dataSource;

        /** 10 ids in chunks of 4, the processor filtering by the run's faults; J on the job, A and B on the step. */
        @Produces
        JobDefinition items() {
            return Job.named("items").listener(new ItemRecorder("J"))
                    .start(load(4, 10, false, new ItemRecorder("A"), new ItemRecorder("B"))).build();
        }

        /** 20 ids in chunks of 5, each injected failure skippable. */
        @Produces
        JobDefinition skipping() {
            return Job.named("skipping").start(load(5, 20, true, new ItemRecorder("E"))).build();
        }

        /** 15 ids in chunks of 5, no failure skippable. */
        @Produces
        JobDefinition strict() {
            return Job.named("strict").start(load(5, 15, false, new ItemRecorder("E"))).build();
        }

        /** 15 ids in chunks of 5, any RuntimeException skippable, with X throwing where the run's mode says. */
        @Produces
        JobDefinition throwing() {
            return Job.named("throwing")
                    .start(chunk("load", 5).reader(context -> new FaultyReader(context.parameters().string("run"), 15))
                            .processor(Jobs::process)
                            .writer(context -> new FaultyWriter(new TargetWriter(dataSource)))
                            .skipLimit(RuntimeException.class, 10)
                            .listener(new ItemRecorder("X"))
                            .build())
                    .build();
        }

        /** Two partitions of 4 ids, workers in chunks of 2; J on the job, P on the partitioned step. */
        @Produces
        JobDefinition partitionedItems() {
            return Job.named("partitionedItems").listener(new ItemRecorder("J"))
                    .start(KernelTestSupport.rangePartitions(2, 4, 2, new TargetWriter(dataSource)).withWorkers(1)
                            .listener(new ItemRecorder("P")))
                    .build();
        }

        private ChunkStep<Row, Row> load(int chunkSize, int items, boolean skipping, BatchListener... listeners) {
            ChunkStep.Builder<Row, Row> step = chunk("load", chunkSize)
                    .reader(context -> new FaultyReader(context.parameters().string("run"), items))
                    .processor(Jobs::process)
                    .writer(context -> new FaultyWriter(new TargetWriter(dataSource)))
                    .retry(2, Duration.ofMillis(10), Duration.ofMillis(20));
            if (skipping) {
                step.skipLimit(IllegalStateException.class, 5).skipLimit(IllegalArgumentException.class, 5);
            }
            for (BatchListener listener : listeners) {
                step.listener(listener);
            }
            return step.build();
        }

        private static Row process(Row row) {
            Faults faults = Faults.of(row.run());
            if (faults.process().contains(row.id())) {
                throw new IllegalArgumentException("cannot process " + row.id());
            }
            return faults.filter().contains(row.id()) ? null : row;
        }
    }

    /** A range reader that cannot read the run's unreadable ids (each is consumed by the failure). */
    static final class FaultyReader implements ItemReader<Row> {
        private final RangeReader range;

        FaultyReader(String run, int size) {
            this.range = new RangeReader(run, 0, size);
        }

        @Override
        public void open(Optional<Checkpoint> checkpoint) {
            range.open(checkpoint);
        }

        @Override
        public Row read() {
            Row row = range.read();
            if (row != null && Faults.of(row.run()).read().contains(row.id())) {
                throw new IllegalStateException("cannot read " + row.id());
            }
            return row;
        }

        @Override
        public Checkpoint checkpoint() {
            return range.checkpoint();
        }
    }

    /** Writes into the target, refusing the run's unwritable ids, failing transiently once at each "once" id. */
    record FaultyWriter(TargetWriter target) implements ItemWriter<Row> {
        @Override
        public void write(List<? extends Row> items) throws SQLException {
            for (Row row : items) {
                Faults faults = Faults.of(row.run());
                if (faults.write().contains(row.id())) {
                    throw new IllegalArgumentException("refuses " + row.id());
                }
                if (faults.transientOnce().contains(row.id()) && faults.transientOnce().remove(row.id())) {
                    throw new SQLException("could not serialize access", "40001");
                }
            }
            target.write(items);
        }
    }

    @Inject
    KernelListeners listeners;

    JobExecution run(String job, String run, String mode, Faults faults) {
        FAULTS.put(run, faults);
        return operator.runAndWait(job, JobParameters.of("run", run).with("mode", mode), call());
    }

    StepExecution load(JobExecution execution) {
        return KernelTestSupport.step(repository, execution.id(), "load");
    }

    static Faults filtering(Long... ids) {
        return new Faults(Set.of(), Set.of(), Set.of(), Set.of(ids), Set.of());
    }

    /** The writer fails transiently the first time it is given {@code id}. */
    static Faults transientOnceAt(long id) {
        Set<Long> once = ConcurrentHashMap.newKeySet();
        once.add(id);
        return new Faults(Set.of(), Set.of(), Set.of(), Set.of(), once);
    }

    @Test
    void eachItemIsReadOutsideTheTransactionThenProcessedAndWrittenInsideIt() throws SQLException {
        String run = freshRun();
        assertEquals(ExecutionStatus.COMPLETED, run("items", run, "none", filtering(2L, 5L, 8L)).status());
        List<String> expected = new ArrayList<>();
        long[][] chunks = { { 0, 4 }, { 4, 8 }, { 8, 10 } };
        for (int n = 1; n <= chunks.length; n++) {
            long from = chunks[n - 1][0];
            long to = chunks[n - 1][1];
            for (long id = from; id < to; id++) {
                expected.addAll(List.of("A.beforeRead no tx", "A.afterRead " + id + " no tx"));
            }
            if (n == chunks.length) {
                // the read that finds the end of the input has no item
                expected.add("A.beforeRead no tx");
            }
            expected.add("A.beforeChunk#" + n + " tx");
            List<Long> written = new ArrayList<>();
            for (long id = from; id < to; id++) {
                boolean filtered = id % 3 == 2;
                expected.addAll(List.of("A.beforeProcess " + id + " tx",
                        "A.afterProcess " + id + " -> " + (filtered ? "null" : id) + " tx"));
                if (!filtered) {
                    written.add(id);
                }
            }
            expected.addAll(List.of("A.beforeWrite " + ids(written) + " tx", "A.afterWrite " + ids(written) + " tx",
                    "A.afterChunk#" + n + " no tx"));
        }
        assertEquals(expected, events(run, "A"));
        assertEquals(7, KernelTestSupport.rows(dataSource, run));
    }

    @Test
    void beansByPriorityThenTheJobsThenTheStepsAndAfterCallbacksInReverse() {
        String run = freshRun();
        assertEquals(ExecutionStatus.COMPLETED, run("items", run, "none", filtering(2L, 5L, 8L)).status());
        List<String> before = List.of("Low", "High", "J", "A", "B");
        List<String> after = List.of("B", "A", "J", "High", "Low");
        assertEquals(before, events(run).subList(0, 5).stream().map(event -> event.substring(0, event.indexOf('.')))
                .toList());
        assertEquals(after, callers(run, "afterRead 0 no tx"));
        assertEquals(before, callers(run, "beforeProcess 0 tx"));
        assertEquals(after, callers(run, "afterProcess 0 -> 0 tx"));
        assertEquals(before, callers(run, "beforeWrite [0, 1, 3] tx"));
        assertEquals(after, callers(run, "afterWrite [0, 1, 3] tx"));
        // a bean for another job is not called
        assertEquals(List.of(), events(run, "Other"));
    }

    @Test
    void readProcessAndWriteErrorsReachTheirListenersBeforeTheSkipsAndTheScanCallsNone() throws SQLException {
        String run = freshRun();
        Faults faults = new Faults(Set.of(3L), Set.of(8L), Set.of(14L), Set.of(), Set.of());
        assertEquals(ExecutionStatus.COMPLETED, run("skipping", run, "none", faults).status());
        List<String> errors = events(run, "E").stream().filter(event -> event.contains("Error")
                || event.contains("Skip") || event.contains("Write")).toList();
        assertEquals(List.of("E.onReadError cannot read 3 no tx", "E.onSkipInRead cannot read 3 tx",
                "E.beforeWrite [0, 1, 2, 4, 5] tx", "E.afterWrite [0, 1, 2, 4, 5] tx",
                "E.onProcessError 8 cannot process 8 tx", "E.onSkipInProcess 8 cannot process 8 tx",
                "E.beforeWrite [6, 7, 9, 10] tx", "E.afterWrite [6, 7, 9, 10] tx",
                "E.beforeWrite [11, 12, 13, 14, 15] tx", "E.onWriteError [11, 12, 13, 14, 15] refuses 14 tx",
                "E.onChunkError#3 items 5 refuses 14 no tx",
                "E.onSkipInWrite 14 refuses 14 tx", "E.beforeWrite [11, 12, 13, 15] tx", "E.afterWrite [11, 12, 13, 15] tx",
                "E.beforeWrite [16, 17, 18, 19] tx", "E.afterWrite [16, 17, 18, 19] tx"), errors);
        // chunk 3: its items processed in the rolled-back try and again in the one that commits; the probes
        // in between call no listener
        List<String> chunk3 = new ArrayList<>(List.of("E.beforeChunk#3 tx"));
        chunk3.addAll(processed(11, 16));
        chunk3.addAll(List.of("E.beforeWrite [11, 12, 13, 14, 15] tx", "E.onWriteError [11, 12, 13, 14, 15] refuses 14 tx",
                "E.onChunkError#3 items 5 refuses 14 no tx", "E.beforeChunk#3 tx"));
        chunk3.addAll(processed(11, 16));
        chunk3.addAll(List.of("E.onSkipInWrite 14 refuses 14 tx", "E.beforeWrite [11, 12, 13, 15] tx",
                "E.afterWrite [11, 12, 13, 15] tx", "E.afterChunk#3 no tx"));
        List<String> events = events(run, "E");
        assertEquals(chunk3, events.subList(events.indexOf("E.beforeChunk#3 tx"), events.indexOf("E.afterChunk#3 no tx") + 1));
        assertEquals(17, KernelTestSupport.rows(dataSource, run));
        // the bean for this job hears it too
        assertTrue(events(run).contains("Other.onWriteError [11, 12, 13, 14, 15] refuses 14 tx"), events(run)::toString);
    }

    static List<String> processed(long from, long to) {
        List<String> processed = new ArrayList<>();
        for (long id = from; id < to; id++) {
            processed.addAll(List.of("E.beforeProcess " + id + " tx", "E.afterProcess " + id + " -> " + id + " tx"));
        }
        return processed;
    }

    @Test
    void withoutASkipPolicyEachErrorReachesItsListenerWithItsItemsAndFailsTheStep() throws SQLException {
        Map<String, Faults> byStage = Map.of(
                "read", new Faults(Set.of(7L), Set.of(), Set.of(), Set.of(), Set.of()),
                "process", new Faults(Set.of(), Set.of(7L), Set.of(), Set.of(), Set.of()),
                "write", new Faults(Set.of(), Set.of(), Set.of(7L), Set.of(), Set.of()));
        Map<String, List<String>> expected = Map.of(
                "read", List.of("E.beforeRead no tx", "E.onReadError cannot read 7 no tx",
                        "E.onChunkError#2 items 0 cannot read 7 no tx"),
                "process", List.of("E.beforeProcess 7 tx", "E.onProcessError 7 cannot process 7 tx",
                        "E.onChunkError#2 items 5 cannot process 7 no tx"),
                "write", List.of("E.beforeWrite [5, 6, 7, 8, 9] tx", "E.onWriteError [5, 6, 7, 8, 9] refuses 7 tx",
                        "E.onChunkError#2 items 5 refuses 7 no tx"));
        for (String stage : byStage.keySet()) {
            String run = freshRun();
            JobExecution ended = run("strict", run, "none", byStage.get(stage));
            assertEquals(ExecutionStatus.FAILED, ended.status(), stage);
            assertEquals(1, load(ended).counters().commitCount(), stage);
            List<String> events = events(run, "E");
            assertEquals(expected.get(stage), events.subList(events.size() - 3, events.size()), stage);
            assertEquals(5, KernelTestSupport.rows(dataSource, run), stage);
        }
    }

    @Test
    void aRetriedChunkKeepsItsReadItemsAndProcessesAndWritesThemAgain() throws SQLException {
        String run = freshRun();
        assertEquals(ExecutionStatus.COMPLETED, run("strict", run, "none", transientOnceAt(7)).status());
        List<String> events = events(run, "E");
        assertEquals(1, events.stream().filter("E.afterRead 7 no tx"::equals).count(), events::toString);
        assertEquals(2, events.stream().filter("E.beforeProcess 7 tx"::equals).count(), events::toString);
        assertEquals(List.of("E.beforeWrite [5, 6, 7, 8, 9] tx", "E.onWriteError [5, 6, 7, 8, 9] could not serialize access tx",
                "E.beforeWrite [5, 6, 7, 8, 9] tx", "E.afterWrite [5, 6, 7, 8, 9] tx"),
                events.stream().filter(event -> event.contains("[5, 6")).toList());
        assertEquals(15, KernelTestSupport.rows(dataSource, run));
    }

    @Test
    void aRestartCallsTheItemListenersOnlyForTheItemsItReadsAgain() throws SQLException {
        String run = freshRun();
        JobExecution failed = run("strict", run, "none", new Faults(Set.of(), Set.of(), Set.of(7L), Set.of(), Set.of()));
        assertEquals(ExecutionStatus.FAILED, failed.status());
        FAULTS.put(run, Faults.NONE);
        JobExecution restarted = operator.await(operator.restart(failed.id(), call()), Duration.ofSeconds(30));
        assertEquals(ExecutionStatus.COMPLETED, restarted.status());
        List<String> events = events(run, "E");
        // the first execution read 0 to 9; the restart resumed after chunk 1 and read 5 to 14
        List<String> reads = new ArrayList<>();
        LongStream.concat(LongStream.range(0, 10), LongStream.range(5, 15))
                .forEach(id -> reads.add("E.afterRead " + id + " no tx"));
        assertEquals(reads, events.stream().filter(event -> event.startsWith("E.afterRead")).toList());
        List<String> processes = new ArrayList<>();
        LongStream.concat(LongStream.range(0, 10), LongStream.range(5, 15))
                .forEach(id -> processes.add("E.beforeProcess " + id + " tx"));
        assertEquals(processes, events.stream().filter(event -> event.startsWith("E.beforeProcess")).toList());
        assertEquals(List.of("E.afterWrite " + ids(0, 5) + " tx", "E.afterWrite " + ids(5, 10) + " tx",
                "E.afterWrite " + ids(10, 15) + " tx"),
                events.stream().filter(event -> event.startsWith("E.afterWrite")).toList());
        assertEquals(15, KernelTestSupport.rows(dataSource, run));
    }

    @Test
    void aListenerThatThrowsFailsTheStepAndIsNeverSkipped() throws SQLException {
        // the step skips any RuntimeException of its reader, processor or writer: none of these is one
        for (String mode : List.of("X.afterRead 7", "X.beforeProcess 7", "X.afterWrite [5, 6, 7, 8, 9]")) {
            String run = freshRun();
            JobExecution ended = run("throwing", run, mode, Faults.NONE);
            assertEquals(ExecutionStatus.FAILED, ended.status(), mode);
            StepExecution load = load(ended);
            assertTrue(load.failure().orElseThrow().message().contains("X throws in " + mode.substring(2)),
                    load.failure()::toString);
            assertEquals(0, load.counters().skipCount(), mode);
            assertEquals(1, load.counters().commitCount(), mode);
            // what the chunk's writer wrote before afterWrite threw rolled back with it
            assertEquals(5, KernelTestSupport.rows(dataSource, run), mode);
            int items = mode.contains("afterRead") ? 0 : 5;
            assertTrue(events(run, "X").contains("X.onChunkError#2 items " + items + " X throws in " + mode.substring(2)
                    + " no tx"), () -> events(run, "X").toString());
        }
    }

    @Test
    void aListenerThatThrowsInAnErrorCallbackFailsTheStepWithTheItemsFailureSuppressed() throws SQLException {
        String run = freshRun();
        String mode = "X.onProcessError 7 cannot process 7";
        JobExecution ended = run("throwing", run, mode, new Faults(Set.of(), Set.of(7L), Set.of(), Set.of(), Set.of()));
        assertEquals(ExecutionStatus.FAILED, ended.status());
        assertEquals(0, load(ended).counters().skipCount());
        assertEquals(5, KernelTestSupport.rows(dataSource, run));
        assertTrue(events(run, "X").contains("X.onChunkError#2 items 5 X throws in onProcessError 7 cannot process 7 "
                + "(suppressed: cannot process 7) no tx"), () -> events(run, "X").toString());
    }

    @Test
    void anErrorCallbackThatThrowsOverATransientFailureIsRetriedWithTheChunk() throws SQLException {
        String run = freshRun();
        JobExecution ended = run("throwing", run, "X.onWriteError [5, 6, 7, 8, 9] could not serialize access",
                transientOnceAt(7));
        assertEquals(ExecutionStatus.COMPLETED, ended.status());
        assertEquals(1, load(ended).counters().rollbackCount());
        assertEquals(15, KernelTestSupport.rows(dataSource, run));
    }

    @Test
    void theItemsAWriteListenerIsGivenAreReadOnly() throws SQLException {
        String run = freshRun();
        JobExecution ended = run("throwing", run, "X.clear", Faults.NONE);
        assertEquals(ExecutionStatus.FAILED, ended.status());
        assertEquals(UnsupportedOperationException.class.getName(), load(ended).failure().orElseThrow().type());
        assertEquals(0, KernelTestSupport.rows(dataSource, run));
    }

    @Test
    void aPartitionedStepsItemListenersHearEveryWorkersItemsAfterTheJobs() throws SQLException {
        String run = freshRun();
        assertEquals(ExecutionStatus.COMPLETED, run("partitionedItems", run, "none", Faults.NONE).status());
        assertEquals(LongStream.range(0, 8).mapToObj(id -> "P.afterRead " + id + " no tx").toList(),
                events(run, "P").stream().filter(event -> event.startsWith("P.afterRead")).sorted().toList());
        assertEquals(List.of("J", "P"), callers(run, "beforeWrite [4, 5] tx"));
        assertEquals(List.of("P", "J"), callers(run, "afterWrite [4, 5] tx"));
        assertEquals(8, KernelTestSupport.rows(dataSource, run));
    }

    @Test
    void anAttemptNoItemListenerAppliesToHasNoItemCallbacks() throws Exception {
        ItemRecorder recorder = new ItemRecorder("quiet");
        Step chunkListenedOnly = chunk("load", 5).reader(context -> new FaultyReader("quiet", 5))
                .writer(context -> items -> {
                }).listener(new ChunkListener() {
                }).listener(new SkipListener() {
                }).build();
        // a step without a processor processes nothing: its process listeners would never be called
        Step processListenedWithoutProcessor = chunk("load", 5).reader(context -> new FaultyReader("quiet", 5))
                .writer(context -> items -> {
                }).listener(new ItemProcessListener() {
                }).build();
        Step itemListened = chunk("load", 5).reader(context -> new FaultyReader("quiet", 5))
                .writer(context -> items -> {
                }).listener(recorder).build();
        assertNull(itemCallbacks("quiet", chunkListenedOnly));
        assertNull(itemCallbacks("quiet", processListenedWithoutProcessor));
        assertNull(itemCallbacks("quiet", tasklet("report", context -> RepeatStatus.FINISHED)));
        assertNotNull(itemCallbacks("quiet", itemListened));
        // the beans for "items" apply to its steps, whatever the step declares
        assertNotNull(itemCallbacks("items", chunkListenedOnly));
    }

    /** What the chunk loop of an attempt of {@code step} in job {@code job} is given for its item listeners. */
    private Object itemCallbacks(String job, Step step) throws Exception {
        Method forStep = KernelListeners.class.getDeclaredMethod("forStep", JobName.class, Step.class);
        forStep.setAccessible(true);
        Object callbacks = forStep.invoke(listeners, JobName.of(job), step);
        Method items = callbacks.getClass().getDeclaredMethod("items");
        items.setAccessible(true);
        return items.invoke(callbacks);
    }

    @Test
    void anItemListenerOnATaskletIsRefused() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> tasklet("t", context -> RepeatStatus.FINISHED).listener(new ItemWriteListener() {
                }));
        assertTrue(refused.getMessage().contains("it implements [ItemWriteListener]"), refused.getMessage());
    }
}
