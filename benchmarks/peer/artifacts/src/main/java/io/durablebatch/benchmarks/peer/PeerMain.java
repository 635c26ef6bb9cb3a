package io.durablebatch.benchmarks.peer;

import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;

import javax.sql.DataSource;

import jakarta.batch.operations.JobOperator;
import jakarta.batch.runtime.BatchStatus;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionManager;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.annotations.QuarkusMain;

/**
 * The peer benchmark's command: the same work through {@code jakarta.batch.operations.JobOperator},
 * whichever batch runtime the application is built with, printed as one JSON line on stdout.
 * <ul>
 * <li>{@code chunk}: the chunk job over {@code peer.warmup-items}, then, timed, over {@code peer.items},
 * polled every 100 ms;
 * <li>{@code launches}: {@code peer.warmup-launches}, then, timed, {@code peer.launches} sequential
 * starts of the one-batchlet job, each polled with {@code getJobExecution} (every millisecond) until it
 * ended;
 * <li>{@code oneshot}: one launch of the one-batchlet job, awaited, then exit (the caller times the
 * whole process).
 * </ul>
 * With {@code peer.api=bare} the {@code chunk} workload has no batch runtime at all: the ceiling
 * ({@link #bareChunk}).
 * <p>
 * With {@code peer.stats=true} the runtime's statements ({@code pg_stat_statements}, without transaction
 * control and the writer's inserts) and commits ({@code pg_stat_database}) of the timed part are counted too: the counters are
 * read
 * after a pause in which every connection's backend reports its figures.
 */
@QuarkusMain
public class PeerMain implements QuarkusApplication {

    private static final Set<BatchStatus> ENDED = Set.of(BatchStatus.COMPLETED, BatchStatus.FAILED,
            BatchStatus.STOPPED, BatchStatus.ABANDONED);
    private static final long STATS_PAUSE_MILLIS = 11_000;
    // A launch is polled as a caller awaiting a short job would; a job of many chunks, as one awaiting
    // a long job would: the chunk figures are then the chunks' own.
    private static final long LAUNCH_POLL_MILLIS = 1;
    private static final long CHUNK_POLL_MILLIS = 100;
    /** The job XML's item-count, for the loop that runs without a batch runtime. */
    private static final int BARE_ITEM_COUNT = 1000;

    @Inject
    JobOperator operator;

    @Inject
    DataSource dataSource;

    @ConfigProperty(name = "peer.runtime")
    String runtime;

    @ConfigProperty(name = "peer.items", defaultValue = "1000000")
    long items;

    @ConfigProperty(name = "peer.warmup-items", defaultValue = "50000")
    long warmupItems;

    @ConfigProperty(name = "peer.launches", defaultValue = "2000")
    int launches;

    @ConfigProperty(name = "peer.warmup-launches", defaultValue = "200")
    int warmupLaunches;

    @ConfigProperty(name = "peer.stats", defaultValue = "false")
    boolean stats;

    /** {@code jakarta} (the Jakarta Batch operator) or {@code native} (the application's {@link PeerLaunches}). */
    @ConfigProperty(name = "peer.api", defaultValue = "jakarta")
    String api;

    @Inject
    Instance<PeerLaunches> otherApi;

    @Inject
    Instance<TransactionManager> transactions;

    @Override
    public int run(String... args) throws Exception {
        String workload = args.length == 0 ? "oneshot" : args[0];
        execute("CREATE TABLE IF NOT EXISTS peer_item (id bigint PRIMARY KEY, name varchar(40) NOT NULL, "
                + "amount bigint NOT NULL)");
        String label = api.equals("jakarta") ? runtime : runtime.replace("jakarta", api);
        StringBuilder line = new StringBuilder("{\"runtime\":\"").append(label).append("\",\"workload\":\"")
                .append(workload).append('"');
        switch (workload) {
            case "chunk" -> chunk(line);
            case "launches" -> launches(line);
            case "oneshot" -> {
                long id = launch("peer-batchlet", new Properties());
                line.append(",\"completed\":").append(completed(id));
            }
            default -> throw new IllegalArgumentException("unknown workload " + workload);
        }
        System.out.println(line.append('}'));
        return 0;
    }

    private void chunk(StringBuilder line) throws Exception {
        runChunk(warmupItems);
        Window window = new Window();
        long nanos = runChunk(items);
        window.stop(line, items / 1000, "Chunk");
        line.append(String.format(Locale.ROOT, ",\"items\":%d,\"itemsPerSecond\":%.0f", items, items / (nanos / 1e9)));
        line.append(",\"rows\":").append(queryLong("SELECT count(*) FROM peer_item"));
    }

    private long runChunk(long count) throws Exception {
        execute("TRUNCATE peer_item");
        if (api.equals("bare")) {
            return bareChunk(count);
        }
        Properties parameters = new Properties();
        parameters.setProperty("items", Long.toString(count));
        long started = System.nanoTime();
        long id = launch("peer-chunk", parameters, CHUNK_POLL_MILLIS);
        long nanos = System.nanoTime() - started;
        if (!completed(id)) {
            throw new IllegalStateException("the chunk job did not complete");
        }
        return nanos;
    }

    /**
     * The ceiling of the chunk workload: the same reader, processor and writer, driven by a plain loop
     * on this thread with no batch runtime at all. Each chunk of {@value #BARE_ITEM_COUNT} is processed
     * and written in one JTA transaction (the {@code TransactionManager}'s begin and commit, as a batch
     * runtime runs a chunk); nothing is recorded, no checkpoint is asked for.
     */
    private long bareChunk(long count) throws Exception {
        PeerItemReader reader = new PeerItemReader();
        reader.items = Long.toString(count);
        PeerItemProcessor processor = new PeerItemProcessor();
        PeerItemWriter writer = new PeerItemWriter();
        writer.dataSource = dataSource;
        TransactionManager transaction = transactions.get();
        long started = System.nanoTime();
        reader.open(null);
        List<Object> read = new ArrayList<>(BARE_ITEM_COUNT);
        boolean end = false;
        while (!end) {
            read.clear();
            Object item;
            while (read.size() < BARE_ITEM_COUNT && (item = reader.readItem()) != null) {
                read.add(item);
            }
            end = read.size() < BARE_ITEM_COUNT;
            transaction.begin();
            try {
                List<Object> processed = new ArrayList<>(read.size());
                for (Object each : read) {
                    processed.add(processor.processItem(each));
                }
                writer.writeItems(processed);
            } catch (Exception | Error e) {
                transaction.rollback();
                throw e;
            }
            transaction.commit();
        }
        long nanos = System.nanoTime() - started;
        long rows = queryLong("SELECT count(*) FROM peer_item");
        if (rows != count) {
            throw new IllegalStateException("the loop wrote " + rows + " rows of " + count);
        }
        return nanos;
    }

    private void launches(StringBuilder line) throws Exception {
        for (int i = 0; i < warmupLaunches; i++) {
            launch("peer-batchlet", new Properties());
        }
        long[] nanos = new long[launches];
        Window window = new Window();
        long started = System.nanoTime();
        for (int i = 0; i < launches; i++) {
            long launchStarted = System.nanoTime();
            launch("peer-batchlet", new Properties());
            nanos[i] = System.nanoTime() - launchStarted;
        }
        long total = System.nanoTime() - started;
        window.stop(line, launches, "Launch");
        Arrays.sort(nanos);
        line.append(String.format(Locale.ROOT, ",\"launches\":%d,\"jobsPerSecond\":%.1f,\"p50Millis\":%.2f,"
                + "\"p95Millis\":%.2f", launches, launches / (total / 1e9), nanos[launches / 2] / 1e6,
                nanos[(int) (launches * 0.95)] / 1e6));
    }

    /**
     * Starts a job and waits for its end: through Jakarta Batch, polling {@code getJobExecution} every
     * millisecond (or {@code pollMillis}); through the other API, as it awaits an execution.
     */
    private long launch(String job, Properties parameters) throws Exception {
        return launch(job, parameters, LAUNCH_POLL_MILLIS);
    }

    private long launch(String job, Properties parameters, long pollMillis) throws Exception {
        if (!api.equals("jakarta")) {
            return otherApi.get().launchAndAwait(job, parameters);
        }
        long id = operator.start(job, parameters);
        while (!ENDED.contains(operator.getJobExecution(id).getBatchStatus())) {
            Thread.sleep(pollMillis);
        }
        return id;
    }

    private boolean completed(long id) {
        return api.equals("jakarta") ? operator.getJobExecution(id).getBatchStatus() == BatchStatus.COMPLETED
                : otherApi.get().completed(id);
    }

    /** The JVM's CPU time and, with {@code peer.stats}, the database's counters over the timed part. */
    private final class Window {

        private final long cpuNanos;
        private final long[] counters;

        Window() throws Exception {
            counters = stats ? counters() : null;
            cpuNanos = cpuNanos();
        }

        void stop(StringBuilder line, long units, String unit) throws Exception {
            long cpu = cpuNanos() - cpuNanos;
            line.append(String.format(Locale.ROOT, ",\"cpuMillisPer%s\":%.3f", unit, cpu / 1e6 / units));
            if (counters != null) {
                long[] after = counters();
                line.append(String.format(Locale.ROOT, ",\"statementsPer%s\":%.2f,\"commitsPer%s\":%.2f", unit,
                        (after[0] - counters[0]) / (double) units, unit, (after[1] - counters[1]) / (double) units));
            }
        }
    }

    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /**
     * The batch runtime's statements (without transaction control, the writer's inserts and these
     * reads) and the commits in this database so far.
     */
    private long[] counters() throws Exception {
        Thread.sleep(STATS_PAUSE_MILLIS);
        long statements = queryLong("SELECT coalesce(sum(s.calls), 0) FROM pg_stat_statements s "
                + "JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = current_database() "
                + "AND s.query !~* '^\\s*(BEGIN|COMMIT|ROLLBACK|SET|SHOW|SAVEPOINT|RELEASE)' "
                + "AND s.query NOT LIKE '%pg_stat%' AND s.query NOT LIKE '%peer_item%'");
        long commits = queryLong("SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()");
        return new long[] { statements, commits };
    }

    private long queryLong(String sql) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(sql)) {
            row.next();
            return row.getLong(1);
        }
    }

    private void execute(String sql) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
