package io.durablebatch.demo;

import static io.durablebatch.job.Steps.tasklet;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Timestamp;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.ConfigProvider;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.schedule.Schedule;

/**
 * A job for schedules: it records its scheduled fire time, its execution and the node that ran it,
 * in the step's transaction, so a row exists once per completed fire. No schedule of its own: the
 * schedule tests configure one ({@code quarkus.durable-batch.jobs.tick.schedule.cron}).
 */
@Singleton
public class TickJob {

    private final AgroalDataSource dataSource;

    TickJob(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    @Produces
    JobDefinition tick() {
        return Job.named("tick").start(tasklet("tick", context -> {
            try (Connection connection = dataSource.getConnection();
                    PreparedStatement insert = connection.prepareStatement(
                            "INSERT INTO demo_schedule_ticks (fire_time, execution_id, node) VALUES (?, ?, ?)")) {
                insert.setTimestamp(1, Timestamp.from(Schedule.fireTime(context.parameters())));
                insert.setLong(2, context.jobExecutionId().value());
                insert.setString(3, ConfigProvider.getConfig().getOptionalValue("quarkus.durable-batch.node-id",
                        String.class).orElse("?"));
                insert.executeUpdate();
            }
            return RepeatStatus.FINISHED;
        })).build();
    }
}
