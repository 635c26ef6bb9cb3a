package io.durablebatch.demo;

import static io.durablebatch.job.Steps.chunk;
import static io.durablebatch.job.Steps.tasklet;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.List;
import java.util.stream.LongStream;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.context.StepContext;
import io.durablebatch.item.support.ListItemReader;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RepeatStatus;

/**
 * The job {@code longWrite}, for the tests of an application's own long statement inside a chunk:
 * it writes ids {@code [0, items)} of a {@code run} into {@code demo_long_write}, ten per chunk, and
 * the write of the second chunk also runs a statement of {@code writeSeconds} ({@code pg_sleep}), as
 * a slow business write would, in the chunk's transaction.
 */
@Singleton
public class LongWriteJob {

    private final AgroalDataSource dataSource;

    LongWriteJob(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    @Produces
    JobDefinition longWrite() {
        return Job.named("longWrite")
                .start(tasklet("prepare", this::prepare))
                .next(chunk("write", 10)
                        .reader(context -> ListItemReader.of(LongStream.range(0, context.parameters().longValue("items"))
                                .boxed().toList()))
                        .writer(context -> (List<? extends Long> items) -> write(context, items))
                        .build())
                .build();
    }

    private RepeatStatus prepare(StepContext context) throws Exception {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS demo_long_write (run varchar(64) NOT NULL, id bigint NOT NULL, "
                    + "PRIMARY KEY (run, id))");
        }
        return RepeatStatus.FINISHED;
    }

    private void write(StepContext context, List<? extends Long> items) throws Exception {
        String run = context.parameters().string("run");
        try (Connection connection = dataSource.getConnection()) {
            if (items.contains(10L)) {
                try (PreparedStatement slow = connection.prepareStatement("SELECT pg_sleep(?)")) {
                    slow.setLong(1, context.parameters().longValue("writeSeconds"));
                    slow.executeQuery().close();
                }
            }
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO demo_long_write VALUES (?, ?)")) {
                for (Long item : items) {
                    insert.setString(1, run);
                    insert.setLong(2, item);
                    insert.addBatch();
                }
                insert.executeBatch();
            }
        }
    }
}
