package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.call;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.freshRun;
import static io.durablebatch.job.Steps.chunk;
import static io.durablebatch.job.Steps.partitioned;
import static io.durablebatch.job.Steps.tasklet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.logging.Level;
import java.util.logging.LogRecord;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.BeforeEach;
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
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.listener.ChunkEvent;
import io.durablebatch.listener.ChunkListener;
import io.durablebatch.listener.JobEvent;
import io.durablebatch.listener.JobListener;
import io.durablebatch.listener.SkipListener;
import io.durablebatch.listener.StepEvent;
import io.durablebatch.listener.StepListener;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.repository.spi.KernelRepository;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Job, step, chunk and skip listeners, as CDI beans and on the definition: the order of every
 * callback, which of them run inside the chunk's transaction (a row a listener writes there commits
 * or rolls back with the chunk), the item and exception of each skip, the chunk errors of retried
 * and failed chunks, beans restricted to named jobs, partition workers, and what a listener that
 * throws does. Each listener records "name.callback" events per run, with "tx" or "no tx" where the
 * transaction matters.
 */
class ListenersTest extends KernelTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, KernelTest.class,
                    KernelTestSupport.class, Jobs.class, Recorder.class, ThrowingByMode.class, First.class, Another.class,
                    SkippedOnly.class))
            .setLogRecordPredicate(record -> record.getLoggerName().startsWith("io.durablebatch"))
            .assertLogRecords(ListenersTest::assertLogged);

    /** The events of each run, in the order they happened. */
    static final Map<String, Queue<String>> EVENTS = new ConcurrentHashMap<>();

    static void event(JobParameters parameters, String event) {
        EVENTS.computeIfAbsent(parameters.string("run"), run -> new ConcurrentLinkedQueue<>()).add(event);
    }

    static List<String> events(String run) {
        return List.copyOf(EVENTS.getOrDefault(run, new ConcurrentLinkedQueue<>()));
    }

    static List<String> chunkEvents(String run) {
        return events(run).stream().filter(event -> event.contains("Chunk")).toList();
    }

    static List<String> chunkOrSkipEvents(String run) {
        return events(run).stream().filter(event -> event.contains("Chunk") || event.contains("Skip")).toList();
    }

    static String inTx() {
        return QuarkusTransaction.isActive() ? "tx" : "no tx";
    }

    /** Inserts a mark for the run, in the caller's transaction when there is one. */
    static void mark(AgroalDataSource dataSource, String run, String mark) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert = connection
                        .prepareStatement("INSERT INTO listener_marks (run, mark) VALUES (?, ?)")) {
            insert.setString(1, run);
            insert.setString(2, mark);
            insert.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Records every callback under its name; {@code throwIn} names the callback in which it throws
     * ("beforeChunk#2": only for chunk 2; "once:beforeChunk#2": the first time only).
     */
    static class Recorder implements JobListener, StepListener, ChunkListener, SkipListener {
        final String name;
        final Set<String> throwIn;
        final AgroalDataSource marks;
        final Set<String> thrown = ConcurrentHashMap.newKeySet();

        Recorder(String name, AgroalDataSource marks, String... throwIn) {
            this.name = name;
            this.marks = marks;
            this.throwIn = Set.of(throwIn);
        }

        void maybeThrow(String callback) {
            if (throwIn.contains(callback) || throwIn.contains("once:" + callback) && thrown.add(callback)) {
                throw new IllegalStateException(name + " throws in " + callback);
            }
        }

        @Override
        public void beforeJob(JobEvent job) {
            event(job.parameters(), name + ".beforeJob " + job.execution().status());
            maybeThrow("beforeJob");
        }

        @Override
        public void afterJob(JobEvent job) {
            event(job.parameters(), name + ".afterJob " + job.execution().status());
            maybeThrow("afterJob");
        }

        @Override
        public void beforeStep(StepEvent step) {
            event(step.context().parameters(), name + ".beforeStep " + step.context().stepName() + " "
                    + step.execution().status() + step.context().partition().map(p -> " " + p.key()).orElse(""));
            maybeThrow("beforeStep");
        }

        @Override
        public void afterStep(StepEvent step) {
            event(step.context().parameters(), name + ".afterStep " + step.context().stepName() + " "
                    + step.execution().status() + step.context().partition().map(p -> " " + p.key()).orElse(""));
            maybeThrow("afterStep");
        }

        @Override
        public void beforeChunk(ChunkEvent chunk) {
            String run = chunk.step().parameters().string("run");
            event(chunk.step().parameters(), name + ".beforeChunk " + chunk.step().stepName() + "#" + chunk.number()
                    + " items " + chunk.items() + " " + inTx());
            if (marks != null) {
                mark(marks, run, name + " chunk " + chunk.step().stepName() + "#" + chunk.number()
                        + chunk.step().partition().map(p -> " " + p.key()).orElse(""));
            }
            maybeThrow("beforeChunk#" + chunk.number());
        }

        @Override
        public void afterChunk(ChunkEvent chunk) {
            event(chunk.step().parameters(), name + ".afterChunk " + chunk.step().stepName() + "#" + chunk.number()
                    + " committed " + chunk.committed().commitCount() + " " + inTx());
            maybeThrow("afterChunk#" + chunk.number());
        }

        @Override
        public void onChunkError(ChunkEvent chunk, Throwable failure) {
            event(chunk.step().parameters(), name + ".onChunkError " + chunk.step().stepName() + "#" + chunk.number()
                    + " " + failure.getMessage() + " " + inTx());
        }

        @Override
        public void onSkipInRead(StepContext step, Exception failure) {
            skipped(step, "read", null, failure);
        }

        @Override
        public void onSkipInProcess(StepContext step, Object item, Exception failure) {
            skipped(step, "process", item, failure);
        }

        @Override
        public void onSkipInWrite(StepContext step, Object item, Exception failure) {
            skipped(step, "write", item, failure);
        }

        private void skipped(StepContext step, String where, Object item, Exception failure) {
            String skip = name + ".onSkipIn" + where + " " + item + " " + failure.getMessage() + " " + inTx();
            event(step.parameters(), skip);
            if (marks != null) {
                mark(marks, step.parameters().string("run"), name + " skip " + where + " " + item);
            }
            maybeThrow("onSkip");
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** The jobs whose events the CDI beans record: every other job's would interleave. */
    static final Set<JobName> OBSERVED = Set.of(JobName.of("listened"), JobName.of("partitionedListened"));

    /** A CDI listener bean of priority 10: called before {@link Another}, after it in "after" callbacks. */
    @ApplicationScoped
    @Priority(10)
    static class First implements JobListener, StepListener {
        @Inject
        KernelRepository repository;

        @Override
        public boolean appliesTo(JobName job) {
            return OBSERVED.contains(job);
        }

        @Override
        public void beforeJob(JobEvent job) {
            event(job.parameters(), "First.beforeJob " + job.execution().status());
        }

        @Override
        public void afterJob(JobEvent job) {
            // read back in a transaction of its own: the end is recorded before afterJob runs
            ExecutionStatus recorded = QuarkusTransaction.requiringNew()
                    .call(() -> repository.getJobExecution(job.execution().id()).orElseThrow().status());
            event(job.parameters(), "First.afterJob " + job.execution().status() + ", recorded " + recorded);
        }

        @Override
        public void beforeStep(StepEvent step) {
            event(step.context().parameters(), "First.beforeStep " + step.context().stepName() + " "
                    + step.execution().status() + " " + inTx());
        }

        @Override
        public void afterStep(StepEvent step) {
            ExecutionStatus recorded = QuarkusTransaction.requiringNew()
                    .call(() -> repository.getStepExecution(step.execution().id()).orElseThrow().status());
            event(step.context().parameters(), "First.afterStep " + step.context().stepName() + " "
                    + step.execution().status() + ", recorded " + recorded + " " + inTx());
        }
    }

    /**
     * A CDI listener bean of priority 20, a chunk listener too, recording as "Second": its class name sorts before
     * {@link First}'s, its priority after.
     */
    @Singleton
    @Priority(20)
    static class Another implements JobListener, StepListener, ChunkListener {
        @Override
        public boolean appliesTo(JobName job) {
            return OBSERVED.contains(job);
        }

        @Override
        public void beforeJob(JobEvent job) {
            event(job.parameters(), "Second.beforeJob");
        }

        @Override
        public void afterJob(JobEvent job) {
            event(job.parameters(), "Second.afterJob");
        }

        @Override
        public void beforeStep(StepEvent step) {
            event(step.context().parameters(), "Second.beforeStep " + step.context().stepName());
        }

        @Override
        public void afterStep(StepEvent step) {
            event(step.context().parameters(), "Second.afterStep " + step.context().stepName());
        }

        @Override
        public void beforeChunk(ChunkEvent chunk) {
            event(chunk.step().parameters(), "Second.beforeChunk " + chunk.step().stepName() + "#" + chunk.number());
        }

        @Override
        public void afterChunk(ChunkEvent chunk) {
            event(chunk.step().parameters(), "Second.afterChunk " + chunk.step().stepName() + "#" + chunk.number());
        }
    }

    /** A CDI skip listener for job "skipped" only. */
    @Singleton
    static class SkippedOnly implements SkipListener, JobListener {
        @Override
        public boolean appliesTo(JobName job) {
            return job.value().equals("skipped");
        }

        @Override
        public void beforeJob(JobEvent job) {
            event(job.parameters(), "SkippedOnly.beforeJob");
        }

        @Override
        public void onSkipInProcess(StepContext step, Object item, Exception failure) {
            event(step.parameters(), "SkippedOnly.onSkipInprocess " + item);
        }
    }

    @Singleton
    static class Jobs {
        @Inject
        AgroalDataSource dataSource;

        /** Two steps: a tasklet, then 10 items in chunks of 4. */
        @Produces
        JobDefinition listened() {
            return Job.named("listened")
                    .listener(new Recorder("J", null))
                    .start(tasklet("prepare", context -> RepeatStatus.FINISHED).listener(new Recorder("T", null)))
                    .next(chunk("load", 4)
                            .reader(context -> new RangeReader(context.parameters().string("run"), 10))
                            .writer(context -> new TargetWriter(dataSource))
                            .listener(new Recorder("C1", dataSource))
                            .listener(new Recorder("C2", null))
                            .build())
                    .build();
        }

        /**
         * 30 items in chunks of 10; by the run's "mode": the first try of chunk 2 fails transiently
         * ("retry"), or chunk 2 fails for good ("fail").
         */
        @Produces
        JobDefinition chunked() {
            return Job.named("chunked")
                    .start(chunk("load", 10)
                            .reader(context -> new RangeReader(context.parameters().string("run"), 30))
                            .writer(context -> failingAtChunkTwo(context.parameters().string("mode"),
                                    new TargetWriter(dataSource)))
                            .retry(2, java.time.Duration.ofMillis(10), java.time.Duration.ofMillis(20))
                            .listener(new Recorder("C", dataSource))
                            .build())
                    .build();
        }

        /**
         * Of the numbers 1 to 20, in chunks of 5: 3 cannot be read, 8 cannot be processed, the
         * writer refuses 14, and the first try of the chunk of 8 fails transiently after its write.
         */
        @Produces
        JobDefinition skipped() {
            Set<String> failedOnce = ConcurrentHashMap.newKeySet();
            return Job.named("skipped")
                    .start(chunk("load", 5)
                            .reader(context -> unreadableThree())
                            .processor((Integer n) -> {
                                if (n == 8) {
                                    throw new IllegalArgumentException("cannot process 8");
                                }
                                return n;
                            })
                            .writer(context -> (List<? extends Integer> items) -> {
                                if (items.contains(14)) {
                                    throw new IllegalArgumentException("refuses 14");
                                }
                                if (items.contains(9) && failedOnce.add(context.parameters().string("run"))) {
                                    throw new SQLException("could not serialize access", "40001");
                                }
                            })
                            .skipLimit(IllegalStateException.class, 5)
                            .skipLimit(IllegalArgumentException.class, 5)
                            .retry(2, java.time.Duration.ofMillis(10), java.time.Duration.ofMillis(20))
                            .listener(new Recorder("S", dataSource))
                            .build())
                    .build();
        }

        /** The numbers 1 to 20 in chunks of 5, 3 unreadable, with a skip listener that throws. */
        @Produces
        JobDefinition skipListenerThrows() {
            return Job.named("skipListenerThrows")
                    .start(chunk("load", 5)
                            .reader(context -> unreadableThree())
                            .writer(context -> items -> {
                            })
                            .skipLimit(IllegalStateException.class, 5)
                            .listener(new Recorder("Y", dataSource, "onSkip"))
                            .build())
                    .build();
        }

        /** Listeners that throw, in the callback the run's "mode" names, in a job of 20 items in chunks of 10. */
        @Produces
        JobDefinition throwing() {
            return Job.named("throwing")
                    .listener(new ThrowingByMode(dataSource))
                    .start(chunk("load", 10)
                            .reader(context -> {
                                event(context.parameters(), "reader opened");
                                return new RangeReader(context.parameters().string("run"), 20);
                            })
                            .writer(context -> new TargetWriter(dataSource))
                            .build())
                    .next(tasklet("report", context -> {
                        event(context.parameters(), "report ran");
                        return RepeatStatus.FINISHED;
                    }))
                    .build();
        }

        /** Two partitions of 4 ids, workers in chunks of 2. */
        @Produces
        JobDefinition partitionedListened() {
            return Job.named("partitionedListened")
                    .start(partitioned("load", context -> KernelTestSupport.rangePlan(2, 4),
                            chunk("loadRange", 2).reader(KernelTestSupport::rangeOf)
                                    .writer(context -> new TargetWriter(dataSource))
                                    .listener(new Recorder("W", null))
                                    .build())
                            .withWorkers(1)
                            .listener(new Recorder("P", dataSource)))
                    .build();
        }
    }

    /** A {@link Recorder} that throws in the callback named by the run's "mode" parameter. */
    static final class ThrowingByMode implements JobListener, StepListener, ChunkListener {
        private final AgroalDataSource dataSource;
        private final Map<String, Recorder> byMode = new ConcurrentHashMap<>();

        ThrowingByMode(AgroalDataSource dataSource) {
            this.dataSource = dataSource;
        }

        private Recorder of(JobParameters parameters) {
            String mode = parameters.string("mode");
            return byMode.computeIfAbsent(mode, m -> new Recorder("X", dataSource, m.split(",")));
        }

        @Override
        public void beforeJob(JobEvent job) {
            of(job.parameters()).beforeJob(job);
        }

        @Override
        public void afterJob(JobEvent job) {
            of(job.parameters()).afterJob(job);
        }

        @Override
        public void beforeStep(StepEvent step) {
            of(step.context().parameters()).beforeStep(step);
        }

        @Override
        public void afterStep(StepEvent step) {
            of(step.context().parameters()).afterStep(step);
        }

        @Override
        public void beforeChunk(ChunkEvent chunk) {
            of(chunk.step().parameters()).beforeChunk(chunk);
        }

        @Override
        public void afterChunk(ChunkEvent chunk) {
            of(chunk.step().parameters()).afterChunk(chunk);
        }

        @Override
        public void onChunkError(ChunkEvent chunk, Throwable failure) {
            of(chunk.step().parameters()).onChunkError(chunk, failure);
        }

        @Override
        public String toString() {
            return "X";
        }
    }

    static ItemWriter<Row> failingAtChunkTwo(String mode, TargetWriter target) {
        Set<String> failedOnce = ConcurrentHashMap.newKeySet();
        return items -> {
            target.write(items);
            Row first = items.get(0);
            if (first.id() == 10 && mode.equals("retry") && failedOnce.add(first.run())) {
                throw new SQLException("could not serialize access", "40001");
            }
            if (first.id() == 10 && mode.equals("fail")) {
                throw new IllegalStateException("chunk 2 is refused");
            }
        };
    }

    static ItemReader<Integer> unreadableThree() {
        return new ItemReader<>() {
            private int next;

            @Override
            public void open(Optional<Checkpoint> checkpoint) {
                next = checkpoint.map(c -> (int) c.bytes()[0]).orElse(1);
            }

            @Override
            public Integer read() {
                if (next > 20) {
                    return null;
                }
                int n = next++;
                if (n == 3) {
                    throw new IllegalStateException("line 3 is malformed");
                }
                return n;
            }

            @Override
            public Checkpoint checkpoint() {
                return Checkpoint.of(new byte[] { (byte) next });
            }
        };
    }

    @BeforeEach
    void createMarks() throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS listener_marks (run varchar(64) NOT NULL, mark text NOT NULL)");
        }
    }

    List<String> marks(String run) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT mark FROM listener_marks WHERE run = ? ORDER BY mark")) {
            select.setString(1, run);
            List<String> marks = new ArrayList<>();
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    marks.add(rows.getString(1));
                }
            }
            return marks;
        }
    }

    JobExecution run(String job, String run, String mode) {
        return operator.runAndWait(job, JobParameters.of("run", run).with("mode", mode), call());
    }

    @Test
    void everyCallbackRunsInItsOrderBeansByPriorityThenTheJobsThenTheSteps() throws SQLException {
        String run = freshRun();
        assertEquals(ExecutionStatus.COMPLETED, run("listened", run, "none").status());
        List<String> expected = new ArrayList<>(List.of(
                "First.beforeJob STARTED", "Second.beforeJob", "J.beforeJob STARTED",
                "First.beforeStep prepare STARTED no tx", "Second.beforeStep prepare", "J.beforeStep prepare STARTED",
                "T.beforeStep prepare STARTED",
                // a tasklet's call is a chunk to the chunk listeners
                "Second.beforeChunk prepare#1", "J.beforeChunk prepare#1 items 0 tx", "T.beforeChunk prepare#1 items 0 tx",
                "T.afterChunk prepare#1 committed 1 no tx", "J.afterChunk prepare#1 committed 1 no tx",
                "Second.afterChunk prepare#1",
                "T.afterStep prepare COMPLETED", "J.afterStep prepare COMPLETED", "Second.afterStep prepare",
                "First.afterStep prepare COMPLETED, recorded COMPLETED no tx",
                "First.beforeStep load STARTED no tx", "Second.beforeStep load", "J.beforeStep load STARTED",
                "C1.beforeStep load STARTED", "C2.beforeStep load STARTED"));
        for (int n = 1; n <= 3; n++) {
            String items = " items " + (n < 3 ? 4 : 2) + " tx";
            String committed = " committed " + n + " no tx";
            expected.addAll(List.of("Second.beforeChunk load#" + n, "J.beforeChunk load#" + n + items,
                    "C1.beforeChunk load#" + n + items, "C2.beforeChunk load#" + n + items,
                    "C2.afterChunk load#" + n + committed, "C1.afterChunk load#" + n + committed,
                    "J.afterChunk load#" + n + committed, "Second.afterChunk load#" + n));
        }
        expected.addAll(List.of("C2.afterStep load COMPLETED", "C1.afterStep load COMPLETED", "J.afterStep load COMPLETED",
                "Second.afterStep load", "First.afterStep load COMPLETED, recorded COMPLETED no tx",
                "J.afterJob COMPLETED", "Second.afterJob", "First.afterJob COMPLETED, recorded COMPLETED"));
        assertEquals(expected, events(run));
        // C1's row of each chunk committed with it
        assertEquals(List.of("C1 chunk load#1", "C1 chunk load#2", "C1 chunk load#3"), marks(run));
    }

    @Test
    void aRetriedChunkReportsItsRollbackAndCommitsTheListenersWritesOnce() throws SQLException {
        String run = freshRun();
        assertEquals(ExecutionStatus.COMPLETED, run("chunked", run, "retry").status());
        assertEquals(List.of("C.beforeChunk load#1 items 10 tx", "C.afterChunk load#1 committed 1 no tx",
                "C.beforeChunk load#2 items 10 tx",
                "C.onChunkError load#2 could not serialize access no tx",
                "C.beforeChunk load#2 items 10 tx", "C.afterChunk load#2 committed 2 no tx",
                "C.beforeChunk load#3 items 10 tx", "C.afterChunk load#3 committed 3 no tx",
                "C.beforeChunk load#4 items 0 tx", "C.afterChunk load#4 committed 4 no tx"),
                chunkEvents(run));
        // beforeChunk ran twice for chunk 2; the row of its rolled-back try went with it
        assertEquals(List.of("C chunk load#1", "C chunk load#2", "C chunk load#3", "C chunk load#4"), marks(run));
        assertEquals(30, KernelTestSupport.rows(dataSource, run));
    }

    @Test
    void aFailedChunkReportsItsErrorAfterTheRollback() throws SQLException {
        String run = freshRun();
        JobExecution ended = run("chunked", run, "fail");
        assertEquals(ExecutionStatus.FAILED, ended.status());
        assertEquals(List.of("C.beforeChunk load#1 items 10 tx", "C.afterChunk load#1 committed 1 no tx",
                "C.beforeChunk load#2 items 10 tx", "C.onChunkError load#2 chunk 2 is refused no tx"), chunkEvents(run));
        assertEquals("C.afterStep load FAILED", events(run).get(events(run).size() - 1));
        assertEquals(List.of("C chunk load#1"), marks(run));
        assertEquals(10, KernelTestSupport.rows(dataSource, run));
    }

    @Test
    void skipListenersHearEachSkipWithItsItemAndExceptionInTheChunksTransaction() throws SQLException {
        String run = freshRun();
        assertEquals(ExecutionStatus.COMPLETED, run("skipped", run, "none").status());
        List<String> skips = events(run).stream().filter(event -> event.contains("onSkip")).toList();
        assertEquals(List.of("S.onSkipInread null line 3 is malformed tx",
                // the chunk of 8 was tried twice (a transient failure after its write): reported twice
                // the CDI bean first, then the step's listener
                "SkippedOnly.onSkipInprocess 8", "S.onSkipInprocess 8 cannot process 8 tx",
                "SkippedOnly.onSkipInprocess 8", "S.onSkipInprocess 8 cannot process 8 tx",
                // found by the scan, in the transaction that commits the chunk without it
                "S.onSkipInwrite 14 refuses 14 tx"), skips);
        // ... and committed once
        assertEquals(List.of("S skip process 8", "S skip read null", "S skip write 14"),
                marks(run).stream().filter(mark -> mark.contains(" skip ")).toList());
        assertTrue(events(run).contains("SkippedOnly.beforeJob"), () -> events(run).toString());
    }

    @Test
    void beansRestrictedToOtherJobsAreNotCalled() {
        String run = freshRun();
        assertEquals(ExecutionStatus.COMPLETED, run("skipped", run, "none").status());
        assertTrue(events(run).stream().noneMatch(event -> event.startsWith("First.") || event.startsWith("Second.")),
                () -> events(run).toString());
        String other = freshRun();
        assertEquals(ExecutionStatus.COMPLETED, run("listened", other, "none").status());
        assertTrue(events(other).stream().noneMatch(event -> event.startsWith("SkippedOnly.")), () -> events(other).toString());
    }

    @Test
    void aPartitionedStepsListenersHearTheParentAndItsWorkersChunks() throws SQLException {
        String run = freshRun();
        assertEquals(ExecutionStatus.COMPLETED, run("partitionedListened", run, "none").status());
        List<String> events = events(run).stream().filter(event -> event.startsWith("P.") || event.startsWith("W.")).toList();
        List<String> expected = new ArrayList<>(List.of("P.beforeStep load STARTED"));
        for (String partition : List.of("p0", "p1")) {
            expected.add("W.beforeStep loadRange STARTED " + partition);
            for (int n = 1; n <= 3; n++) {
                String items = " items " + (n < 3 ? 2 : 0) + " tx";
                String committed = " committed " + n + " no tx";
                expected.addAll(List.of("P.beforeChunk loadRange#" + n + items, "W.beforeChunk loadRange#" + n + items,
                        "W.afterChunk loadRange#" + n + committed, "P.afterChunk loadRange#" + n + committed));
            }
            expected.add("W.afterStep loadRange COMPLETED " + partition);
        }
        expected.add("P.afterStep load COMPLETED");
        assertEquals(expected, events);
        // the CDI beans hear the parent and each worker
        assertEquals(3, events(run).stream().filter(event -> event.startsWith("Second.beforeStep")).count());
        assertEquals(List.of("P chunk loadRange#1 p0", "P chunk loadRange#1 p1", "P chunk loadRange#2 p0",
                "P chunk loadRange#2 p1", "P chunk loadRange#3 p0", "P chunk loadRange#3 p1"), marks(run));
    }

    @Test
    void aThrowingBeforeJobFailsTheExecutionBeforeAnyStep() {
        String run = freshRun();
        JobExecution ended = run("throwing", run, "beforeJob");
        assertEquals(ExecutionStatus.FAILED, ended.status());
        assertEquals("X throws in beforeJob", ended.failure().orElseThrow().message());
        assertEquals(List.of(), tx(() -> repository.stepExecutions(ended.id())));
        assertEquals(List.of("X.beforeJob STARTED", "X.afterJob FAILED"), events(run));
    }

    @Test
    void aThrowingBeforeStepFailsTheStepBeforeItsReaderOpens() {
        String run = freshRun();
        JobExecution ended = run("throwing", run, "beforeStep");
        assertEquals(ExecutionStatus.FAILED, ended.status());
        StepExecution load = KernelTestSupport.step(repository, ended.id(), "load");
        assertEquals(ExecutionStatus.FAILED, load.status());
        assertTrue(load.failure().orElseThrow().message().contains("X throws in beforeStep"), load.failure()::toString);
        assertEquals(List.of("X.beforeJob STARTED", "X.beforeStep load STARTED", "X.afterStep load FAILED",
                "X.afterJob FAILED"), events(run));
    }

    @Test
    void aThrowingBeforeChunkRollsTheChunkBackAndFailsTheStep() throws SQLException {
        String run = freshRun();
        JobExecution ended = run("throwing", run, "beforeChunk#2");
        assertEquals(ExecutionStatus.FAILED, ended.status());
        StepExecution load = KernelTestSupport.step(repository, ended.id(), "load");
        assertEquals(1, load.counters().commitCount());
        assertEquals(10, KernelTestSupport.rows(dataSource, run));
        assertEquals(List.of("X chunk load#1"), marks(run));
        assertTrue(events(run).contains("X.onChunkError load#2 X throws in beforeChunk#2 no tx"), () -> events(run).toString());
    }

    @Test
    void aRestartIsANewAttemptThatCallsItsListenersAgain() throws SQLException {
        String run = freshRun();
        JobExecution failed = run("throwing", run, "once:beforeChunk#2");
        assertEquals(ExecutionStatus.FAILED, failed.status());
        JobExecution restarted = operator.await(operator.restart(failed.id(), call()), Duration.ofSeconds(30));
        assertEquals(ExecutionStatus.COMPLETED, restarted.status());
        assertEquals(List.of("X.beforeJob STARTED", "X.afterJob FAILED", "X.beforeJob STARTED", "X.afterJob COMPLETED"),
                events(run).stream().filter(event -> event.contains("Job ")).toList());
        // the restart resumed after the committed chunk 1: its chunks are counted from 1 again
        assertEquals(List.of("X chunk load#1", "X chunk load#1", "X chunk load#2", "X chunk report#1"), marks(run));
        assertEquals(20, KernelTestSupport.rows(dataSource, run));
    }

    @Test
    void aThrowingSkipListenerRollsTheChunkBackAndFailsTheStep() throws SQLException {
        String run = freshRun();
        JobExecution ended = run("skipListenerThrows", run, "none");
        assertEquals(ExecutionStatus.FAILED, ended.status());
        StepExecution load = KernelTestSupport.step(repository, ended.id(), "load");
        assertEquals(0, load.counters().commitCount());
        assertTrue(load.failure().orElseThrow().message().contains("Y throws in onSkip"), load.failure()::toString);
        // the marks of its beforeChunk and of the skip rolled back with the chunk
        assertEquals(List.of(), marks(run));
        assertEquals(List.of("Y.beforeChunk load#1 items 5 tx", "Y.onSkipInread null line 3 is malformed tx",
                "Y.onChunkError load#1 Y throws in onSkip no tx"), chunkOrSkipEvents(run));
    }

    @Test
    void throwingAfterCallbacksAreLoggedAndChangeNothingRecorded() throws SQLException {
        String run = freshRun();
        JobExecution ended = run("throwing", run, "afterChunk#1,afterStep,afterJob");
        assertEquals(ExecutionStatus.COMPLETED, ended.status());
        assertEquals(20, KernelTestSupport.rows(dataSource, run));
        StepExecution load = KernelTestSupport.step(repository, ended.id(), "load");
        assertEquals(ExecutionStatus.COMPLETED, load.status());
        assertEquals(3, load.counters().commitCount());
        // the flow went on after the throwing afterStep of "load"
        assertTrue(events(run).contains("report ran"), () -> events(run).toString());
        assertEquals("X.afterJob COMPLETED", events(run).get(events(run).size() - 1));
    }

    @Test
    void aListenerThatNothingWouldCallIsRefused() {
        StepListener onlySteps = new StepListener() {
        };
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> tasklet("t", context -> RepeatStatus.FINISHED).listener(new SkipListener() {
                }));
        assertTrue(refused.getMessage().contains("tasklet step 't' calls [StepListener, ChunkListener] only"),
                refused.getMessage());
        // a job takes every kind; a step listener on a step is fine
        Job.named("fine").listener(onlySteps).start(tasklet("t", context -> RepeatStatus.FINISHED).listener(onlySteps))
                .build();
        assertThrows(IllegalArgumentException.class, () -> chunk("c", 1).reader(context -> unreadableThree())
                .listener(new JobListener() {
                }));
    }

    @Test
    void listenersAreNotPartOfThePlan() {
        JobDefinition plain = Job.named("plain").start(tasklet("t", context -> RepeatStatus.FINISHED)).build();
        JobDefinition listened = Job.named("plain").listener(new JobListener() {
        }).start(tasklet("t", context -> RepeatStatus.FINISHED).listener(new StepListener() {
        })).build();
        assertEquals(plain.identity(), listened.identity());
        assertTrue(plain.listeners().isEmpty());
        assertTrue(!listened.listeners().isEmpty());
    }

    /** Checked once the application stopped: failing after-callbacks logged; each skip at WARN once. */
    static void assertLogged(List<LogRecord> records) {
        List<String> errors = records.stream().filter(record -> record.getLevel().intValue() >= Level.SEVERE.intValue())
                .map(KernelTestSupport::logged).filter(line -> line.startsWith("Listener X failed")).toList();
        // the job's listener applies to both steps: the tasklet's call is its chunk 1
        assertEquals(5, errors.size(), errors::toString);
        assertTrue(errors.get(0).startsWith("Listener X failed in afterChunk of chunk 1 of step 'load'"), errors.get(0));
        assertTrue(errors.get(1).startsWith("Listener X failed in afterStep of step 'load'"), errors.get(1));
        assertTrue(errors.get(2).startsWith("Listener X failed in afterChunk of chunk 1 of step 'report'"), errors.get(2));
        assertTrue(errors.get(3).startsWith("Listener X failed in afterStep of step 'report'"), errors.get(3));
        assertTrue(errors.get(4).startsWith("Listener X failed in afterJob of job 'throwing'"), errors.get(4));
        List<String> skips = records.stream().filter(record -> record.getLoggerName().equals("io.durablebatch.skips"))
                .map(KernelTestSupport::logged).toList();
        // two runs of "skipped": three skips each, the one of the retried chunk once
        assertEquals(6, skips.size(), skips::toString);
        assertEquals(2, skips.stream().filter(line -> line.endsWith("skipped 8 (java.lang.IllegalArgumentException: "
                + "cannot process 8)")).count(), skips::toString);
    }
}
