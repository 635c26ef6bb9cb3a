package io.durablebatch.test;

import static io.durablebatch.job.Steps.chunk;
import static io.durablebatch.job.Steps.tasklet;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.item.jdbc.JdbcBatchItemWriter;
import io.durablebatch.item.support.ListItemReader;
import io.durablebatch.job.ChunkStep;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.operator.JobParameters;
import io.quarkus.runtime.StartupEvent;

/**
 * The jobs the tests of {@link JobTester} run. Each writes the numbers 1 to {@code count} of its
 * {@code run} into {@code junit_numbers}, whose primary key refuses a number written twice; a
 * number divisible by {@code skipEvery} fails in the processor and is skipped.
 */
@Singleton
public class NumbersJobs {

    /** The chunk step's commit interval. */
    static final int CHUNK = 10;

    /** Released by a test to let the {@code blocking} job end. */
    static volatile CountDownLatch release = new CountDownLatch(0);

    private final AgroalDataSource dataSource;

    NumbersJobs(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    void createTables(@Observes StartupEvent event) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS junit_numbers (run text NOT NULL, n bigint NOT NULL, "
                    + "PRIMARY KEY (run, n))");
            statement.execute("CREATE TABLE IF NOT EXISTS junit_prepared (run text PRIMARY KEY)");
        }
    }

    /** A number the processor refuses: skippable. */
    static class UnwantedNumber extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UnwantedNumber(long n) {
            super("unwanted number " + n);
        }
    }

    @Produces
    JobDefinition numbers() {
        return Job.named("numbers").start(load()).build();
    }

    /** {@code prepare} records the run, then {@code load} writes its numbers. */
    @Produces
    JobDefinition prepareAndLoad() {
        return Job.named("prepareAndLoad").start(tasklet("prepare", context -> {
            try (Connection connection = dataSource.getConnection();
                    PreparedStatement insert = connection.prepareStatement("INSERT INTO junit_prepared VALUES (?)")) {
                insert.setString(1, context.parameters().string("run"));
                insert.executeUpdate();
            }
            return RepeatStatus.FINISHED;
        })).next(load()).build();
    }

    /** Waits until {@link #release} is counted down. */
    @Produces
    JobDefinition blocking() {
        return Job.named("blocking").start(tasklet("wait", context -> {
            if (!release.await(1, TimeUnit.MINUTES)) {
                throw new IllegalStateException("never released");
            }
            return RepeatStatus.FINISHED;
        })).build();
    }

    /** Revision 2 restarts the checkpoints of revision 1: an edge the repository must hold. */
    @Produces
    JobDefinition upgraded() {
        return Job.named("upgraded").revision("2").upgradesFrom("1", "ab".repeat(32)).start(load()).build();
    }

    /** One number to write; {@code unwanted} ones fail in the processor. */
    record Item(long n, boolean unwanted) {
    }

    private ChunkStep<Item, Long> load() {
        return chunk("load", CHUNK)
                .reader(context -> ListItemReader.of(items(context.parameters())))
                .processor(item -> {
                    if (item.unwanted()) {
                        throw new UnwantedNumber(item.n());
                    }
                    return item.n();
                })
                .writer(context -> JdbcBatchItemWriter.<Long> builder().dataSource(dataSource)
                        .sql("INSERT INTO junit_numbers (run, n) VALUES (?, ?)")
                        .setter((statement, n) -> {
                            statement.setString(1, context.parameters().string("run"));
                            statement.setLong(2, n);
                        })
                        .build())
                .skipLimit(UnwantedNumber.class, 100)
                .build();
    }

    /** The numbers 1 to {@code count}; with {@code skipEvery}, its multiples are unwanted. */
    private static List<Item> items(JobParameters parameters) {
        long skipEvery = parameters.get("skipEvery").isPresent() ? parameters.longValue("skipEvery") : 0;
        return LongStream.rangeClosed(1, parameters.longValue("count"))
                .mapToObj(n -> new Item(n, skipEvery > 0 && n % skipEvery == 0)).toList();
    }
}
