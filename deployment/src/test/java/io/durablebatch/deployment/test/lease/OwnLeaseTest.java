package io.durablebatch.deployment.test.lease;

import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.deployment.test.SimpleMeters.count;
import static io.durablebatch.job.Steps.chunk;
import static io.restassured.RestAssured.when;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.deployment.test.SimpleMeters;
import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.item.ItemReader;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.job.KernelIdentity;
import io.durablebatch.runtime.lease.LeaseLiveness;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.RepositorySessions;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A process and its own leases: its sweeper never recovers what runs in it, a step stops committing
 * on this process's clock once its lease may have run out (and goes on once a renewal is confirmed
 * again; its readiness check is DOWN and its failed renewals are counted meanwhile), and only the
 * sessions its batch work uses carry its mark, at no round trip in steady state.
 */
class OwnLeaseTest {

    static final Duration LEASE = Duration.ofSeconds(2);
    static final int CHUNKS = 60;

    @RegisterExtension
    static final QuarkusUnitTest APP = RepositoryTestSupport.repositoryApp(Jobs.class, SimpleMeters.class)
            .overrideConfigKey("quarkus.durable-batch.lease.sweeper-enabled", "true")
            .overrideConfigKey("quarkus.durable-batch.lease.duration", LEASE.toSeconds() + "s")
            .overrideConfigKey("quarkus.durable-batch.lease.sweep-interval", "100ms")
            .overrideConfigKey("quarkus.durable-batch.control.poll-interval", "5s");

    /** The application_name each chunk's write saw, as its session had it. */
    static final Set<String> WRITER_SESSION_NAMES = ConcurrentHashMap.newKeySet();

    @Singleton
    static class Jobs {
        @Inject
        AgroalDataSource dataSource;

        /** Writes ids [0, 10 * CHUNKS) of a run into own_lease_target, 10 per chunk, 50 ms per chunk. */
        @Produces
        JobDefinition slowImport() {
            return Job.named("ownLeaseImport").restartOnOwnerLoss(2)
                    .start(chunk("import", 10)
                            .reader(context -> new Ids(context.parameters().string("run")))
                            .writer(context -> (List<? extends Long> items) -> write(context.parameters().string("run"),
                                    items))
                            .build())
                    .build();
        }

        void write(String run, List<? extends Long> items) throws Exception {
            Thread.sleep(50);
            try (Connection connection = dataSource.getConnection();
                    PreparedStatement insert = connection.prepareStatement("INSERT INTO own_lease_target VALUES (?, ?)");
                    Statement name = connection.createStatement();
                    ResultSet seen = name.executeQuery("SELECT current_setting('application_name')")) {
                seen.next();
                WRITER_SESSION_NAMES.add(seen.getString(1));
                for (Long item : items) {
                    insert.setString(1, run);
                    insert.setLong(2, item);
                    insert.addBatch();
                }
                insert.executeBatch();
            }
        }
    }

    static final class Ids implements ItemReader<Long> {
        private long next;

        Ids(String run) {
        }

        @Override
        public void open(Optional<Checkpoint> checkpoint) {
            next = checkpoint.map(c -> Long.parseLong(new String(c.bytes()))).orElse(0L);
        }

        @Override
        public Long read() {
            return next < 10L * CHUNKS ? next++ : null;
        }

        @Override
        public Checkpoint checkpoint() {
            return Checkpoint.of(Long.toString(next).getBytes());
        }
    }

    @Inject
    JobOperator operator;

    @Inject
    KernelRepository repository;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    RepositoryTables tables;

    @Inject
    KernelIdentity identity;

    @Inject
    LeaseLiveness liveness;

    @Inject
    RepositorySessions sessions;

    @Inject
    SimpleMeterRegistry meters;

    private static final String LEASES = "checks.find { it.name == 'Durable Batch leases' }";

    @BeforeEach
    void createTarget() throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS own_lease_target (run varchar(64) NOT NULL, id bigint NOT NULL, "
                    + "PRIMARY KEY (run, id))");
        }
    }

    /**
     * The execution's lease runs out in the database while it runs here (as after an outage longer
     * than the lease): this process's sweeper leaves it alone, its heartbeat renews it under the same
     * owner token, and it completes in its first attempt.
     */
    @Test
    void anExecutionRunningHereIsNeverRecoveredByItsOwnSweeper() throws Exception {
        String run = UUID.randomUUID().toString();
        JobExecutionId id = operator.start("ownLeaseImport", JobParameters.of("run", run), OperatorCall.by("test"));
        for (int i = 0; i < 10; i++) {
            Thread.sleep(150);
            expireLease(id);
        }
        JobExecution ended = operator.await(id, Duration.ofSeconds(60));
        assertEquals(ExecutionStatus.COMPLETED, ended.status());
        assertTrue(tx(() -> repository.recoveryDecision(id)).isEmpty(), "nothing recovered it");
        assertEquals(10L * CHUNKS, rows(run));
    }

    /**
     * The heartbeat cannot renew (a lock holds the execution's row past the statement timeout, as an
     * outage would): once the last confirmed renewal is older than the lease, no chunk commits, without
     * the database being asked, the readiness check is DOWN and the failures are counted; once
     * renewals go through again, the job completes by itself, nothing twice.
     */
    @Test
    void aStepStopsCommittingOnceItsLastConfirmedRenewalIsOlderThanTheLease() throws Exception {
        String run = UUID.randomUUID().toString();
        JobExecutionId id = operator.start("ownLeaseImport", JobParameters.of("run", run), OperatorCall.by("test"));
        while (rows(run) < 50) {
            Thread.sleep(10);
        }
        long frozen;
        try (Connection lock = dataSource.getConnection()) {
            lock.setAutoCommit(false);
            try (PreparedStatement select = lock.prepareStatement("SELECT id FROM " + tables.prefix()
                    + "job_execution WHERE id = ? FOR UPDATE")) {
                select.setLong(1, id.value());
                select.executeQuery().close();
            }
            Thread.sleep(LEASE.toMillis() + 1_000);
            assertTrue(liveness.lost(), "no renewal was confirmed for longer than the lease");
            when().get("/q/health/ready").then().statusCode(503).body(LEASES + ".status", is("DOWN"));
            assertTrue(count(meters, "durable.batch.lease.renewal.failures") > 0, "the failed renewals are counted");
            frozen = rows(run);
            Thread.sleep(1_500);
            assertEquals(frozen, rows(run), "no chunk committed while the lease may have run out");
            lock.rollback();
        }
        // the step's retries (a second) ran out long before: it ended FAILED for want of its repository,
        // or its end could not be recorded and this process's own sweeper recovered it; either way the
        // owner-loss restart resumes it here
        JobExecution ended = awaitCompleted(id, Duration.ofSeconds(60));
        assertTrue(ended.attempt() > 1, "restarted: " + ended);
        assertTrue(frozen < 10L * CHUNKS, "the lock came before the end");
        assertEquals(10L * CHUNKS, rows(run));
        assertFalse(liveness.lost());
        when().get("/q/health/ready").then().body(LEASES + ".status", is("UP"));
    }

    /**
     * The sessions the kernel's threads use carry this process's mark, those of the application's own
     * threads do not; a session that keeps serving batch work is not renamed again.
     */
    @Test
    void onlyBatchWorkCarriesTheMarkAtNoRoundTripInSteadyState() throws Exception {
        String mark = "durable-batch " + identity.bootId();
        long renamedBefore = sessions.renamed();
        JobExecutionId id = operator.start("ownLeaseImport", JobParameters.of("run", UUID.randomUUID().toString()),
                OperatorCall.by("test"));
        assertEquals(ExecutionStatus.COMPLETED, operator.await(id, Duration.ofSeconds(60)).status());
        long renamed = sessions.renamed() - renamedBefore;
        assertTrue(WRITER_SESSION_NAMES.stream().allMatch(name -> name.startsWith(mark)),
                "the chunk's own session is marked: " + WRITER_SESSION_NAMES);
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement();
                ResultSet name = statement.executeQuery("SELECT current_setting('application_name')")) {
            name.next();
            assertFalse(name.getString(1).startsWith("durable-batch"), "the application's session: " + name.getString(1));
        }
        assertTrue(renamed < CHUNKS / 4, CHUNKS + " chunks renamed sessions " + renamed + " times");
    }

    private JobExecution awaitCompleted(JobExecutionId first, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        var instance = tx(() -> repository.getJobExecution(first)).orElseThrow().jobInstanceId();
        while (true) {
            List<JobExecution> executions = tx(() -> repository.jobExecutions(instance));
            Optional<JobExecution> completed = executions.stream()
                    .filter(execution -> execution.status() == ExecutionStatus.COMPLETED).findFirst();
            if (completed.isPresent()) {
                return completed.get();
            }
            assertTrue(System.nanoTime() < deadline, "instance " + instance + " did not complete: " + executions);
            Thread.sleep(100);
        }
    }

    private void expireLease(JobExecutionId id) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement expire = connection.prepareStatement("UPDATE " + tables.prefix()
                        + "job_execution SET lease_expires_at = statement_timestamp() - interval '1 hour' "
                        + "WHERE id = ? AND status = 'STARTED'")) {
            expire.setLong(1, id.value());
            expire.executeUpdate();
        }
    }

    private long rows(String run) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement count = connection.prepareStatement(
                        "SELECT count(*), count(DISTINCT id) FROM own_lease_target WHERE run = ?")) {
            count.setString(1, run);
            try (ResultSet row = count.executeQuery()) {
                row.next();
                assertEquals(row.getLong(1), row.getLong(2), "no id twice");
                return row.getLong(1);
            }
        }
    }
}
