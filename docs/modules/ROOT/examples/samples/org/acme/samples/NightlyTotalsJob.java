package org.acme.samples;

import static io.durablebatch.job.Steps.tasklet;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.schedule.MisfirePolicy;
import io.durablebatch.schedule.Schedule;

/** Every night at 02:00 Berlin time, the totals of the 24 hours before the fire time. */
@Singleton
public class NightlyTotalsJob {

    private final AgroalDataSource dataSource;

    NightlyTotalsJob(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    @Produces
    JobDefinition nightlyTotals() {
        return Job.named("nightlyTotals")
                .schedule(Schedule.cron("0 0 2 * * ?").zone("Europe/Berlin").misfire(MisfirePolicy.RUN_ALL))
                .start(tasklet("totals", context -> {
                    // the fire time is an identifying parameter: a rerun covers the same 24 hours
                    Instant until = Schedule.fireTime(context.parameters());
                    writeTotals(until.minus(Duration.ofDays(1)), until);
                    return RepeatStatus.FINISHED;
                }))
                .build();
    }

    private void writeTotals(Instant from, Instant until) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert = connection.prepareStatement("""
                        INSERT INTO daily_totals (day_end, orders, amount)
                        SELECT ?, count(*), coalesce(sum(amount), 0) FROM orders WHERE created_at >= ? AND created_at < ?
                        ON CONFLICT (day_end) DO NOTHING""")) {
            insert.setTimestamp(1, Timestamp.from(until));
            insert.setTimestamp(2, Timestamp.from(from));
            insert.setTimestamp(3, Timestamp.from(until));
            insert.executeUpdate();
        }
    }
}
