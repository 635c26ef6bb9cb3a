package io.durablebatch.deployment.test.lease;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertRefused;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.job.Steps.tasklet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobInstanceKey;
import io.durablebatch.execution.JobName;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.control.OwnerToken;
import io.durablebatch.repository.spi.KernelRepository;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A restart of an execution whose owner is presumed alive (its lease is live) is refused with a
 * message that names the lease, its expiry on the database clock and how long it has left; once the
 * lease has run out, with when it ran out and what makes the execution restartable (a sweeper's
 * recovery).
 */
class RestartRefusedWhileLeasedTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, Jobs.class))
            // the executions of the other owner stay as they are: no sweeper recovers them under the test
            .overrideConfigKey("quarkus.durable-batch.lease.sweeper-enabled", "false");

    private static final Pattern IN_SECONDS = Pattern.compile("\\(in (\\d+) s\\)");
    private static final Pattern SECONDS_AGO = Pattern.compile("\\((\\d+) s ago\\)");

    @Singleton
    static class Jobs {
        @Produces
        JobDefinition leased() {
            return Job.named("leased").start(tasklet("only", context -> RepeatStatus.FINISHED)).build();
        }
    }

    @Inject
    JobOperator operator;

    @Inject
    KernelRepository repository;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void aRestartWhileTheOwnersLeaseIsLiveNamesTheLeaseAndWhenItRunsOut() throws SQLException {
        OwnerToken elsewhere = new OwnerToken("elsewhere/" + UUID.randomUUID());
        JobExecution running = launchedBy(elsewhere);

        RepositoryException refusal = assertRefused(RepositoryError.EXECUTION_ACTIVE,
                () -> operator.restart(running.id(), OperatorCall.by("alice")));

        String message = refusal.getMessage();
        assertTrue(message.contains("is STARTED: its owner " + elsewhere.value() + " holds its lease until "
                + leaseExpiry(running) + " on the database clock"), message);
        Matcher left = IN_SECONDS.matcher(message);
        assertTrue(left.find(), message);
        long seconds = Long.parseLong(left.group(1));
        // the launch wrote the lease as its statement's time plus the lease (30 s by default)
        assertTrue(seconds > 0 && seconds <= 30, message);
        assertTrue(message.contains("once the lease has run out and a sweeper has recovered it"), message);
        assertTrue(message.contains("recover it declaring its owner dead"), message);
        assertEquals(ExecutionStatus.STARTED, tx(() -> repository.getJobExecution(running.id())).orElseThrow().status());
    }

    @Test
    void aRestartAfterTheLeaseRanOutButBeforeAnyRecoverySaysWhenItRanOut() throws SQLException {
        JobExecution orphan = launchedBy(new OwnerToken("gone/" + UUID.randomUUID()));
        execute("UPDATE dbatch_job_execution SET lease_expires_at = statement_timestamp() - interval '5 seconds' "
                + "WHERE id = ?", orphan.id().value());

        RepositoryException refusal = assertRefused(RepositoryError.EXECUTION_ACTIVE,
                () -> operator.restart(orphan.id(), OperatorCall.by("alice")));

        String message = refusal.getMessage();
        assertTrue(message.contains("ran out at " + leaseExpiry(orphan) + " on the database clock"), message);
        Matcher ago = SECONDS_AGO.matcher(message);
        assertTrue(ago.find(), message);
        assertTrue(Long.parseLong(ago.group(1)) >= 4, message);
        assertTrue(message.contains("its owner is presumed gone"), message);
        assertTrue(message.contains("once a sweeper has recovered it"), message);
    }

    /** An attempt of {@code leased} as another process's launch leaves it: STARTED, under a fresh lease. */
    private JobExecution launchedBy(OwnerToken owner) {
        JobInstanceKey key = JobInstanceKey.of(JobName.of("leased"),
                Map.of("run", ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE)));
        return tx(() -> repository.launchJobExecution(
                JobExecutionRequest.of(repository.selectOrCreateJobInstance(key).instance().id()), owner, now()));
    }

    private String leaseExpiry(JobExecution execution) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(
                        "SELECT lease_expires_at FROM dbatch_job_execution WHERE id = ?")) {
            statement.setLong(1, execution.id().value());
            try (ResultSet row = statement.executeQuery()) {
                row.next();
                Instant expiry = row.getObject(1, OffsetDateTime.class).toInstant();
                return expiry.truncatedTo(ChronoUnit.MILLIS).toString();
            }
        }
    }

    private void execute(String sql, long id) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setLong(1, id);
            assertEquals(1, statement.executeUpdate());
        }
    }
}
