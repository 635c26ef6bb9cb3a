package io.durablebatch.benchmarks;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;

import javax.sql.DataSource;

import org.eclipse.microprofile.config.Config;
import org.jboss.logging.Logger;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * Chunk ETL through the kernel against the bare-JDBC limit of the same work. The kernel runs a chunk
 * step that reads generated items and writes them into {@code etl_target(id bigint primary key,
 * payload text)} with a JDBC batch writer, 100 items a chunk, one JTA transaction per chunk. The
 * limit does the same transactions with plain JDBC on one connection: each a 100-row batch insert
 * and one progress UPDATE, then a commit. Rounds alternate kernel and limit, adjacent in time on a
 * shared machine: the ratio reported is the median of the rounds' ratios. A third variant does the
 * limit's transactions as JTA transactions on the pooled datasource, to show what the transaction
 * manager and pool cost before any kernel code. {@code benchmark.kernel.paths} selects the variants:
 * {@code benchmarks/run.sh --fresh-jvm} runs each in a JVM of its own and pairs the rounds itself.
 */
final class ChunkEtlBenchmark implements Workload {

    private static final Logger LOG = Logger.getLogger(ChunkEtlBenchmark.class);
    static final int CHUNK = 100;

    private final BenchmarkConfig.Kernel config;
    private final BenchmarkConfig.Mode mode;
    private final JobOperator operator;
    private final BenchDatabase database;
    private final MetadataSql metadataSql;
    private final Config settings;
    private final DataSource dataSource;

    ChunkEtlBenchmark(BenchmarkConfig.Kernel config, BenchmarkConfig.Mode mode, JobOperator operator, BenchDatabase database,
            MetadataSql metadataSql, Config settings, DataSource dataSource) {
        this.dataSource = dataSource;
        this.config = config;
        this.mode = mode;
        this.operator = operator;
        this.database = database;
        this.metadataSql = metadataSql;
        this.settings = settings;
    }

    @Override
    public String name() {
        return "chunk-etl";
    }

    @Override
    public String description() {
        return config.items() + " items in chunks of " + CHUNK + " through the kernel vs the bare-JDBC limit, "
                + config.rounds() + " rounds";
    }

    /** One measured run: wall time and the metadata statements it issued. */
    private record Run(double seconds, long metadataStatements) {
    }

    @Override
    public JsonLine run() {
        EtlTarget.create(database);
        List<EtlPath> paths = config.paths();
        JsonLine line = JsonLine.workload(name()).put("items", config.items()).put("chunk", CHUNK)
                .put("paths", paths.stream().map(EtlPath::field).toList());
        if (mode.warmsUp()) {
            // warm up every path (JIT, prepared statements, pool) on a tenth of the items
            paths.forEach(path -> run(path, config.items() / 10, line));
        }
        Map<EtlPath, List<Double>> rates = new EnumMap<>(EtlPath.class);
        List<Double> ratios = new ArrayList<>();
        long statements = 0;
        for (int round = 0; round < config.rounds(); round++) {
            for (EtlPath path : paths) {
                Run run = run(path, config.items(), line);
                rates.computeIfAbsent(path, p -> new ArrayList<>()).add(config.items() / run.seconds());
                statements = Math.max(statements, run.metadataStatements());
                LOG.infof("round %d: %s %.0f items/s", round + 1, path.field(), config.items() / run.seconds());
            }
            if (rates.containsKey(EtlPath.KERNEL) && rates.containsKey(EtlPath.BARE_JDBC)) {
                ratios.add(rates.get(EtlPath.KERNEL).get(round) / rates.get(EtlPath.BARE_JDBC).get(round));
            }
        }
        rates.forEach((path, rounds) -> line.put(path.field() + "ItemsPerSecond", median(rounds)));
        if (!ratios.isEmpty()) {
            line.put("ratio", median(ratios)).put("ratioRounds", ratios);
        }
        if (rates.containsKey(EtlPath.KERNEL)) {
            long chunks = config.items() / CHUNK;
            line.put("chunks", chunks)
                    .put("metadataStatementsPerRun", statements)
                    .put("metadataStatementsPerChunk", (double) statements / chunks);
        }
        rates.forEach((path, rounds) -> line.put(path.field() + "Rounds", rounds));
        return line;
    }

    private Run run(EtlPath path, long items, JsonLine line) {
        return switch (path) {
            case KERNEL -> kernel(items, line);
            case BARE_JDBC -> bare(items, line);
            case JTA_JDBC -> jta(items, line);
        };
    }

    private Run kernel(long items, JsonLine line) {
        EtlTarget.truncate(database);
        long before = metadataSql.statementsExecuted();
        long start = System.nanoTime();
        JobExecution execution = operator.runAndWait(BenchmarkJobs.ETL, JobParameters.of("items", items)
                .with("run", UUID.randomUUID().toString()), OperatorCall.by("benchmark"));
        double seconds = (System.nanoTime() - start) / 1e9;
        long statements = metadataSql.statementsExecuted() - before;
        line.require(execution.status() == ExecutionStatus.COMPLETED, "the ETL job completed");
        line.require(EtlTarget.rows(database) == items, "etl_target holds every item exactly once");
        return new Run(seconds, statements);
    }

    /** The target emptied, and the progress row the limits update in place of the kernel's step, at zero. */
    private void resetLimitTables() {
        EtlTarget.truncate(database);
        database.execute("CREATE TABLE IF NOT EXISTS etl_progress (id integer PRIMARY KEY, position bigint NOT NULL, "
                + "written bigint NOT NULL)");
        database.execute("INSERT INTO etl_progress VALUES (1, 0, 0) ON CONFLICT (id) DO UPDATE SET position = 0, written = 0");
    }

    /** The limit: the same transactions with plain JDBC, as fast as the driver and server go. */
    private Run bare(long items, JsonLine line) {
        resetLimitTables();
        Properties properties = new Properties();
        properties.setProperty("user", settings.getValue("quarkus.datasource.username", String.class));
        settings.getOptionalValue("quarkus.datasource.password", String.class)
                .ifPresent(password -> properties.setProperty("password", password));
        properties.setProperty("reWriteBatchedInserts", "true");
        long start = System.nanoTime();
        try (Connection connection = DriverManager.getConnection(settings.getValue("quarkus.datasource.jdbc.url",
                String.class), properties);
                PreparedStatement insert = connection.prepareStatement("INSERT INTO etl_target (id, payload) VALUES (?, ?)");
                PreparedStatement progress = connection.prepareStatement(
                        "UPDATE etl_progress SET position = ?, written = ? WHERE id = 1")) {
            connection.setAutoCommit(false);
            for (long chunkStart = 0; chunkStart < items; chunkStart += CHUNK) {
                long end = Math.min(items, chunkStart + CHUNK);
                for (long id = chunkStart; id < end; id++) {
                    insert.setLong(1, id);
                    insert.setString(2, EtlItems.payload(id));
                    insert.addBatch();
                }
                insert.executeBatch();
                progress.setLong(1, end);
                progress.setLong(2, end);
                progress.executeUpdate();
                connection.commit();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("the bare-JDBC ETL failed: " + e.getMessage(), e);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        line.require(EtlTarget.rows(database) == items, "the bare-JDBC ETL wrote every item");
        return new Run(seconds, 0);
    }

    /**
     * The same transactions once more, but each a JTA transaction on the application's datasource,
     * as the kernel's are: what the transaction manager and pool cost before any kernel code runs.
     */
    private Run jta(long items, JsonLine line) {
        resetLimitTables();
        long start = System.nanoTime();
        for (long chunkStart = 0; chunkStart < items; chunkStart += CHUNK) {
            long end = Math.min(items, chunkStart + CHUNK);
            long first = chunkStart;
            QuarkusTransaction.requiringNew().run(() -> {
                try (Connection connection = dataSource.getConnection();
                        PreparedStatement insert = connection.prepareStatement(
                                "INSERT INTO etl_target (id, payload) VALUES (?, ?)");
                        PreparedStatement progress = connection.prepareStatement(
                                "UPDATE etl_progress SET position = ?, written = ? WHERE id = 1")) {
                    for (long id = first; id < end; id++) {
                        insert.setLong(1, id);
                        insert.setString(2, EtlItems.payload(id));
                        insert.addBatch();
                    }
                    insert.executeBatch();
                    progress.setLong(1, end);
                    progress.setLong(2, end);
                    progress.executeUpdate();
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        line.require(EtlTarget.rows(database) == items, "the JTA ETL wrote every item");
        return new Run(seconds, 0);
    }

    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }
}
