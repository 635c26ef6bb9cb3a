package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.job.Steps.tasklet;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Every transaction of the kernel locks a job execution's row before its steps' rows, as the
 * heartbeat does when it renews both: a step's last unit of work, which also records the route and
 * the job's end, records them before the step's completion. With the heartbeat renewing every few
 * milliseconds while jobs end side by side, PostgreSQL detects no deadlock.
 */
class LockOrderTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Jobs.class))
            .overrideConfigKey("quarkus.durable-batch.control.poll-interval", "2ms")
            .overrideConfigKey("quarkus.durable-batch.executor.max-concurrency", "8")
            .overrideConfigKey("quarkus.durable-batch.lease.sweeper-enabled", "false");

    @Singleton
    static class Jobs {
        @Produces
        JobDefinition twoSteps() {
            return Job.named("lock-order")
                    .start(tasklet("first", context -> RepeatStatus.FINISHED))
                    .next(tasklet("second", context -> RepeatStatus.FINISHED))
                    .build();
        }
    }

    @Inject
    JobOperator operator;

    @Test
    void jobsEndingWhileTheHeartbeatRenewsTheirLeasesNeverDeadlock() throws Exception {
        long before = deadlocks();
        List<JobExecutionId> launched = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            launched.add(operator.start("lock-order", JobParameters.of("run", UUID.randomUUID().toString()),
                    OperatorCall.by("test")));
        }
        for (JobExecutionId id : launched) {
            assertEquals(ExecutionStatus.COMPLETED, operator.await(id, Duration.ofMinutes(2)).status());
        }
        assertEquals(before, deadlocks(), "deadlocks PostgreSQL detected in the test database");
    }

    /** The deadlocks PostgreSQL counted in this database, once its statistics caught up. */
    private static long deadlocks() throws SQLException, InterruptedException {
        try (Connection connection = DriverManager.getConnection(System.getProperty("quarkus.datasource.jdbc.url"),
                System.getProperty("quarkus.datasource.username"), System.getProperty("quarkus.datasource.password"));
                Statement statement = connection.createStatement()) {
            // a backend reports its counters within a second of going idle; a deadlock takes
            // deadlock_timeout (1 s) to be detected
            Thread.sleep(2_500);
            statement.execute("SELECT pg_stat_clear_snapshot()");
            try (ResultSet row = statement.executeQuery(
                    "SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()")) {
                row.next();
                return row.getLong(1);
            }
        }
    }
}
