package io.durablebatch.deployment.test.operator;

import static io.durablebatch.job.Steps.tasklet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.transaction.UserTransaction;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.runtime.job.CallerTransaction;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A launch committed in the caller's transaction whose hand-off to the kernel's threads never
 * happens, as when the process dies right after the commit (simulated here: the hand-off is
 * dropped). The execution is committed claimed by this process, with a lease nobody renews: once it
 * ran out, the sweeper recovers it as FAILED ({@code system:lease}) and, as the owner-loss restart
 * policy allows, restarts it, and the job runs.
 */
class LaunchHandOffLostTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RepositoryTestSupport.repositoryApp(Jobs.class)
            .overrideConfigKey("quarkus.durable-batch.lease.sweeper-enabled", "true")
            .overrideConfigKey("quarkus.durable-batch.lease.duration", "2s")
            .overrideConfigKey("quarkus.durable-batch.lease.sweep-interval", "200ms")
            .overrideConfigKey("quarkus.durable-batch.lease.restart-on-owner-loss", "1");

    static final Map<String, AtomicInteger> RAN = new ConcurrentHashMap<>();

    @Singleton
    static class Jobs {

        @Produces
        JobDefinition recorded() {
            return Job.named("outbox-lost-hand-off").start(tasklet("record", context -> {
                RAN.computeIfAbsent(context.parameters().string("run"), run -> new AtomicInteger()).incrementAndGet();
                return RepeatStatus.FINISHED;
            })).build();
        }
    }

    @Inject
    JobOperator operator;

    @Inject
    UserTransaction transaction;

    @Inject
    CallerTransaction caller;

    @Inject
    RepositoryTables tables;

    @Test
    void aLaunchWhoseProcessDiedAfterTheCommitIsRecoveredAndRuns() throws Exception {
        String run = UUID.randomUUID().toString();
        caller.loseNextHandOffs(1);
        transaction.begin();
        JobExecutionId id = operator.start("outbox-lost-hand-off", JobParameters.of("run", run),
                OperatorCall.by("test"));
        transaction.commit();

        Thread.sleep(500); // well within the lease
        assertFalse(RAN.containsKey(run), "the dropped hand-off ran");
        assertEquals(List.of("STARTED"), history(id), "the committed launch, claimed, before its lease ran out");

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!history(id).equals(List.of("FAILED", "COMPLETED")) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertEquals(List.of("FAILED", "COMPLETED"), history(id), "the lost launch, recovered, and its restart");
        assertEquals(1, RAN.get(run).get(), "runs of the job");
        assertEquals(List.of("system:lease OWNER_LOST FAILED"), recoveries(id));
    }

    /** The statuses of the attempts of the instance of {@code id}, in order. */
    private List<String> history(JobExecutionId id) throws SQLException {
        return strings("""
                SELECT status FROM {p}job_execution
                WHERE job_instance_id = (SELECT job_instance_id FROM {p}job_execution WHERE id = ?)
                ORDER BY attempt""", id);
    }

    private List<String> recoveries(JobExecutionId id) throws SQLException {
        return strings("SELECT actor || ' ' || reason || ' ' || resolution FROM {p}recovery_decision "
                + "WHERE job_execution_id = ?", id);
    }

    private List<String> strings(String query, JobExecutionId id) throws SQLException {
        try (Connection connection = DriverManager.getConnection(System.getProperty("quarkus.datasource.jdbc.url"),
                System.getProperty("quarkus.datasource.username"), System.getProperty("quarkus.datasource.password"));
                PreparedStatement select = connection.prepareStatement(tables.substitute(query))) {
            select.setLong(1, id.value());
            List<String> values = new ArrayList<>();
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    values.add(rows.getString(1));
                }
            }
            return values;
        }
    }
}
