package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.job.Steps.chunk;
import static io.durablebatch.job.Steps.partitioned;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;
import java.util.function.LongPredicate;
import java.util.function.Predicate;
import java.util.logging.LogRecord;
import java.util.stream.IntStream;

import javax.sql.DataSource;

import org.jboss.logmanager.ExtLogRecord;

import io.durablebatch.context.PartitionContext;
import io.durablebatch.context.StepContext;
import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepName;
import io.durablebatch.item.ItemReader;
import io.durablebatch.item.ItemWriter;
import io.durablebatch.job.PartitionedStep;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.partition.PartitionPlanEntry;
import io.durablebatch.repository.partition.StepPartition;
import io.durablebatch.repository.spi.KernelRepository;

/**
 * Test readers and writers for the kernel tests: a restartable range reader that records where it
 * was opened, and a JDBC batch writer into {@code kernel_target}, with failure injection by run.
 * Every test uses its own run id, so tests sharing the database never see each other's rows. The
 * rows, the range reader and the range plan are public for the fault sweeps, which run the same
 * shapes of job into a table of their own.
 */
public final class KernelTestSupport {

    /** Where each run's readers were opened: "run@offset". */
    static final Queue<String> OPENS = new ConcurrentLinkedQueue<>();
    /** Items the writer of a run refuses with the given exception factory, until cleared. */
    static final Map<String, LongPredicate> WRITE_FAILURES = new ConcurrentHashMap<>();
    static final Map<String, SQLException> WRITE_FAILURE_TYPE = new ConcurrentHashMap<>();

    private KernelTestSupport() {
    }

    static String freshRun() {
        return UUID.randomUUID().toString();
    }

    static JobParameters run(String run) {
        return JobParameters.of("run", run);
    }

    static OperatorCall call() {
        return OperatorCall.by("test");
    }

    static void createTarget(DataSource dataSource) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS kernel_target (run varchar(64) NOT NULL, id bigint NOT NULL, "
                    + "payload text, PRIMARY KEY (run, id))");
        }
    }

    static long rows(DataSource dataSource, String run) throws SQLException {
        return single(dataSource, "SELECT count(*) FROM kernel_target WHERE run = ?", run);
    }

    /** Waits up to 30 seconds until {@code run} has written at least {@code atLeast} rows. */
    static void awaitRows(DataSource dataSource, String run, long atLeast) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (rows(dataSource, run) < atLeast) {
            assertTrue(System.nanoTime() < deadline, "the job never reached " + atLeast + " rows");
            Thread.sleep(10);
        }
    }

    static long distinctIds(DataSource dataSource, String run) throws SQLException {
        return single(dataSource, "SELECT count(DISTINCT id) FROM kernel_target WHERE run = ?", run);
    }

    static List<String> opens(String run) {
        return OPENS.stream().filter(open -> open.startsWith(run + "@")).map(open -> open.substring(run.length() + 1))
                .toList();
    }

    private static long single(DataSource dataSource, String sql, String run) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, run);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    /** One item: a row of a run. */
    public record Row(String run, long id) {
    }

    /** {@code partitions} partitions of {@code perPartition} ids each, keyed "p0", "p1", ...; input "from,to". */
    public static List<PartitionPlanEntry> rangePlan(int partitions, int perPartition) {
        return IntStream.range(0, partitions).mapToObj(p -> PartitionPlanEntry.of("p" + p,
                (p * perPartition + "," + (p + 1) * perPartition).getBytes(StandardCharsets.UTF_8))).toList();
    }

    /** A reader of the id range its partition's input names, for the run of the job's "run" parameter. */
    public static RangeReader rangeOf(StepContext context) {
        PartitionContext partition = context.partition().orElseThrow();
        String[] range = partition.input().split(",");
        return new RangeReader(context.parameters().string("run"), Long.parseLong(range[0]), Long.parseLong(range[1]));
    }

    /**
     * The partitioned step "load" over {@link #rangePlan}: its "loadRange" workers read their range in
     * chunks of {@code chunkSize} with {@code reader} and write them with {@code writer}.
     */
    static PartitionedStep rangePartitions(int partitions, int perPartition, int chunkSize,
            Function<StepContext, ? extends ItemReader<Row>> reader, Function<StepContext, ItemWriter<Row>> writer) {
        return partitioned("load", context -> rangePlan(partitions, perPartition),
                chunk("loadRange", chunkSize).reader(reader).writer(writer).build());
    }

    /** {@link #rangePartitions} whose workers read with {@link #rangeOf}. */
    public static PartitionedStep rangePartitions(int partitions, int perPartition, int chunkSize,
            ItemWriter<Row> writer) {
        return rangePartitions(partitions, perPartition, chunkSize, KernelTestSupport::rangeOf, context -> writer);
    }

    /** Writes with {@code writer} after a pause of {@code millis}, so a chunk takes time. */
    static ItemWriter<Row> pausing(long millis, ItemWriter<Row> writer) {
        return items -> {
            Thread.sleep(millis);
            writer.write(items);
        };
    }

    /** The step of an execution named {@code name}. */
    static StepExecution step(KernelRepository repository, JobExecutionId execution, String name) {
        return tx(() -> repository.stepExecutions(execution)).stream().filter(s -> s.stepName().value().equals(name))
                .findFirst().orElseThrow();
    }

    /** The parent step "load", once it has published its plan. */
    static StepExecution awaitPlannedParent(KernelRepository repository, JobExecutionId execution)
            throws InterruptedException {
        return awaitParent(repository, execution, plan -> !plan.isEmpty(), "the parent never published its plan");
    }

    /** The parent step "load", once its plan satisfies {@code ready}; fails after 20 seconds with {@code never}. */
    static StepExecution awaitParent(KernelRepository repository, JobExecutionId execution,
            Predicate<List<StepPartition>> ready, String never) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (true) {
            Optional<StepExecution> parent = tx(() -> repository.stepExecutions(execution)).stream()
                    .filter(s -> s.stepName().value().equals("load")).findFirst();
            if (parent.isPresent() && ready.test(tx(() -> repository.stepPartitionPlan(parent.get().id())))) {
                return parent.get();
            }
            assertTrue(System.nanoTime() < deadline, never);
            Thread.sleep(5);
        }
    }

    /** As a worker of another process starts: a "loadRange" step execution, STARTED, ready to claim a partition. */
    static StepExecution startOtherProcessWorker(KernelRepository repository, JobExecutionId execution) {
        return tx(() -> {
            StepExecution created = repository.createStepExecution(execution, StepName.of("loadRange"));
            return repository.transitionStepExecution(created.id(), created.version(),
                    LifecycleTransition.to(ExecutionStatus.STARTED, now()));
        });
    }

    /** Reads the ids [0, size) of a run; the checkpoint is the next id, as 8 bytes. */
    public static final class RangeReader implements ItemReader<Row> {
        private final String run;
        private final long from;
        private final long size;
        private long next;

        RangeReader(String run, long size) {
            this(run, 0, size);
        }

        /** Reads the ids [from, to). */
        public RangeReader(String run, long from, long to) {
            this.run = run;
            this.from = from;
            this.size = to;
        }

        @Override
        public void open(Optional<Checkpoint> checkpoint) {
            next = checkpoint.map(c -> ByteBuffer.wrap(c.bytes()).getLong()).orElse(from);
            OPENS.add(run + "@" + next);
        }

        @Override
        public Row read() {
            return next < size ? new Row(run, next++) : null;
        }

        @Override
        public Checkpoint checkpoint() {
            return Checkpoint.of(ByteBuffer.allocate(Long.BYTES).putLong(next).array());
        }

        @Override
        public java.util.OptionalLong size() {
            return java.util.OptionalLong.of(size - from);
        }
    }

    /** A {@link RangeReader} that takes {@code pause} per read, for chunks that end by time. */
    static ItemReader<Row> slowRange(String run, long size, Duration pause) {
        RangeReader range = new RangeReader(run, size);
        return new ItemReader<>() {
            @Override
            public void open(Optional<Checkpoint> checkpoint) {
                range.open(checkpoint);
            }

            @Override
            public Row read() throws InterruptedException {
                Thread.sleep(pause.toMillis());
                return range.read();
            }

            @Override
            public Checkpoint checkpoint() {
                return range.checkpoint();
            }
        };
    }

    /** Inserts rows with one JDBC batch per chunk, on the connection enlisted in the chunk's transaction. */
    static final class TargetWriter implements ItemWriter<Row> {
        private final DataSource dataSource;

        TargetWriter(DataSource dataSource) {
            this.dataSource = dataSource;
        }

        @Override
        public void write(List<? extends Row> items) throws SQLException {
            for (Row item : items) {
                LongPredicate failing = WRITE_FAILURES.get(item.run());
                if (failing != null && failing.test(item.id())) {
                    SQLException failure = WRITE_FAILURE_TYPE.get(item.run());
                    if (failure != null) {
                        throw failure;
                    }
                    throw new IllegalStateException("injected failure at item " + item.id());
                }
            }
            try (Connection connection = dataSource.getConnection();
                    PreparedStatement insert = connection.prepareStatement(
                            "INSERT INTO kernel_target (run, id, payload) VALUES (?, ?, ?)")) {
                for (Row item : items) {
                    insert.setString(1, item.run());
                    insert.setLong(2, item.id());
                    insert.setString(3, "item " + item.id());
                    insert.addBatch();
                }
                insert.executeBatch();
            }
        }
    }

    /** A log record's message as it was printed, its parameters filled in. */
    static String logged(LogRecord record) {
        return ((ExtLogRecord) record).getFormattedMessage();
    }
}
