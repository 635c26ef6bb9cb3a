package io.durablebatch.deployment.test.faults;

import static io.durablebatch.deployment.test.kernel.KernelTestSupport.rangePartitions;
import static io.durablebatch.job.Steps.chunk;
import static io.durablebatch.job.Steps.tasklet;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.context.StepContext;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.deployment.test.kernel.KernelTestSupport;
import io.durablebatch.deployment.test.kernel.KernelTestSupport.RangeReader;
import io.durablebatch.deployment.test.kernel.KernelTestSupport.Row;
import io.durablebatch.item.ItemWriter;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RepeatStatus;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The small jobs the fault sweeps run, writing into {@code fault_rows}, keyed by run and item as a
 * business table is: an item written twice is refused by the key (and the sweeps call a step failed
 * by a duplicate key a violation), so the sweeps can check that every item is there once.
 * <ul>
 * <li>{@value #CHUNK_THEN_TASKLET}: a chunk step of {@value #CHUNK_ITEMS} items in chunks of
 * {@value #COMMIT_INTERVAL} (five chunks, the last one short), then a tasklet that writes one
 * marker row (id {@value #CHUNK_ITEMS}) in its transaction.</li>
 * <li>{@value #PARTITIONED}: a partitioned step of {@value #PARTITIONS} partitions of
 * {@value #PER_PARTITION} items each (three chunks each), run by {@value #WORKERS} local workers, so
 * that one worker runs two partitions while the other runs one.</li>
 * </ul>
 */
@Singleton
public class FaultJobs {

    static final String CHUNK_THEN_TASKLET = "faultChunkThenTasklet";
    static final String PARTITIONED = "faultPartitioned";
    static final int COMMIT_INTERVAL = 10;
    static final int CHUNK_ITEMS = 45;
    static final int PARTITIONS = 3;
    static final int PER_PARTITION = 25;
    static final int WORKERS = 2;

    @Inject
    AgroalDataSource dataSource;

    @Produces
    JobDefinition chunkThenTasklet() {
        return Job.named(CHUNK_THEN_TASKLET)
                .start(chunk("load", COMMIT_INTERVAL)
                        .reader(context -> new RangeReader(run(context), 0, CHUNK_ITEMS))
                        .writer(context -> new TargetWriter(dataSource))
                        .build())
                .next(tasklet("mark", context -> {
                    new TargetWriter(dataSource).write(List.of(new Row(run(context), CHUNK_ITEMS)));
                    return RepeatStatus.FINISHED;
                }))
                .build();
    }

    @Produces
    JobDefinition partitionedLoad() {
        return Job.named(PARTITIONED)
                .start(rangePartitions(PARTITIONS, PER_PARTITION, COMMIT_INTERVAL, new TargetWriter(dataSource))
                        .withWorkers(WORKERS))
                .build();
    }

    /**
     * An application whose kernel runs these jobs (and {@code extraClasses}) on the fault-injecting
     * driver, with a repository of its own (tables named {@code tablePrefix}…): other test processes
     * sharing the database never run or recover its executions.
     */
    static QuarkusUnitTest app(String tablePrefix, Class<?>... extraClasses) {
        return new QuarkusUnitTest()
                .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, FaultInjectingDriver.class,
                        FaultJobs.class, KernelTestSupport.class).addClasses(extraClasses))
                .overrideConfigKey("quarkus.datasource.jdbc.driver", FaultInjectingDriver.class.getName())
                .overrideConfigKey("quarkus.durable-batch.schema.table-prefix", tablePrefix);
    }

    /** The rows every item of a completed run of {@code job} leaves, each exactly once. */
    static int expectedRows(String job) {
        return job.equals(PARTITIONED) ? PARTITIONS * PER_PARTITION : CHUNK_ITEMS + 1;
    }

    static void createTarget(AgroalDataSource dataSource) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("""
                    CREATE TABLE IF NOT EXISTS fault_rows (
                        run varchar(64) NOT NULL,
                        id bigint NOT NULL,
                        PRIMARY KEY (run, id))""");
        }
    }

    /** The rows of {@code run}, and how many distinct ids they hold. */
    static long[] rowsAndDistinctIds(AgroalDataSource dataSource, String run) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement count = connection.prepareStatement(
                        "SELECT count(*), count(DISTINCT id) FROM fault_rows WHERE run = ?")) {
            count.setString(1, run);
            try (ResultSet rows = count.executeQuery()) {
                rows.next();
                return new long[] { rows.getLong(1), rows.getLong(2) };
            }
        }
    }

    private static String run(StepContext context) {
        return context.parameters().string("run");
    }

    /** Inserts rows with one JDBC batch, on the connection enlisted in the caller's transaction. */
    static final class TargetWriter implements ItemWriter<Row> {
        private final AgroalDataSource dataSource;

        TargetWriter(AgroalDataSource dataSource) {
            this.dataSource = dataSource;
        }

        @Override
        public void write(List<? extends Row> items) throws SQLException {
            try (Connection connection = dataSource.getConnection();
                    PreparedStatement insert = connection.prepareStatement("INSERT INTO fault_rows (run, id) VALUES (?, ?)")) {
                for (Row item : items) {
                    insert.setString(1, item.run());
                    insert.setLong(2, item.id());
                    insert.addBatch();
                }
                insert.executeBatch();
            }
        }
    }
}
