package io.durablebatch.benchmarks;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.UUID;

import javax.sql.DataSource;

import org.eclipse.microprofile.config.Config;
import org.jboss.logging.Logger;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.job.JobOperator;
import io.durablebatch.job.JobParameters;
import io.durablebatch.job.OperatorCall;
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
 * manager and pool cost before any kernel code.
 */
final class ChunkEtlBenchmark implements Workload {

    private static final Logger LOG = Logger.getLogger(ChunkEtlBenchmark.class);
    static final int CHUNK = 100;

    private final BenchmarkConfig.Kernel config;
    private final JobOperator operator;
    private final BenchDatabase database;
    private final MetadataSql metadataSql;
    private final Config settings;
    private final DataSource dataSource;

    ChunkEtlBenchmark(BenchmarkConfig.Kernel config, JobOperator operator, BenchDatabase database,
            MetadataSql metadataSql, Config settings, DataSource dataSource) {
        this.dataSource = dataSource;
        this.config = config;
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
        JsonLine line = JsonLine.workload(name()).put("items", config.items()).put("chunk", CHUNK);
        // warm up both paths (JIT, prepared statements, pool) on a tenth of the items
        kernel(config.items() / 10, line);
        bare(config.items() / 10, line);
        List<Double> kernelRates = new ArrayList<>();
        List<Double> bareRates = new ArrayList<>();
        List<Double> jtaRates = new ArrayList<>();
        List<Double> ratios = new ArrayList<>();
        List<Long> statementsPerRun = new ArrayList<>();
        for (int round = 0; round < config.rounds(); round++) {
            Run kernel = kernel(config.items(), line);
            kernelRates.add(config.items() / kernel.seconds());
            statementsPerRun.add(kernel.metadataStatements());
            bareRates.add(config.items() / bare(config.items(), line).seconds());
            jtaRates.add(config.items() / jta(config.items(), line));
            ratios.add(kernelRates.get(round) / bareRates.get(round));
            LOG.infof("round %d: kernel %.0f items/s, bare JDBC %.0f items/s, JDBC in JTA transactions %.0f items/s",
                    round + 1, kernelRates.get(round), bareRates.get(round), jtaRates.get(round));
        }
        double kernelRate = median(kernelRates);
        double bareRate = median(bareRates);
        long chunks = config.items() / CHUNK;
        long statements = Collections.max(statementsPerRun);
        return line.put("kernelItemsPerSecond", kernelRate)
                .put("bareJdbcItemsPerSecond", bareRate)
                .put("ratio", median(ratios))
                .put("jtaJdbcItemsPerSecond", median(jtaRates))
                .put("chunks", chunks)
                .put("metadataStatementsPerRun", statements)
                .put("metadataStatementsPerChunk", (double) statements / chunks)
                .put("kernelRounds", kernelRates)
                .put("bareJdbcRounds", bareRates);
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

    /** The limit: the same transactions with plain JDBC, as fast as the driver and server go. */
    private Run bare(long items, JsonLine line) {
        EtlTarget.truncate(database);
        database.execute("CREATE TABLE IF NOT EXISTS etl_progress (id integer PRIMARY KEY, position bigint NOT NULL, "
                + "written bigint NOT NULL)");
        database.execute("INSERT INTO etl_progress VALUES (1, 0, 0) ON CONFLICT (id) DO UPDATE SET position = 0, written = 0");
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
    private double jta(long items, JsonLine line) {
        EtlTarget.truncate(database);
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
        return seconds;
    }

    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }
}
