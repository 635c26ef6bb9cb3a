package io.durablebatch.deployment.test.lease;

import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.deployment.test.SimpleMeters.count;
import static io.durablebatch.job.Steps.chunk;
import static io.durablebatch.job.Steps.tasklet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

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
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.ReasonCode;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepName;
import io.durablebatch.item.ItemReader;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.RecoveryDecision;
import io.durablebatch.repository.RecoveryResolution;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.control.OperatorAction;
import io.durablebatch.repository.control.OwnerToken;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.job.JobRegistry;
import io.durablebatch.runtime.job.KernelIdentity;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Liveness leases: executions whose owner is gone are recovered by the sweeper of a live node (and
 * restarted, where the job says so), live ones never; an operator's explicit recovery respects the
 * lease unless it declares the owner dead, and the owner, alive after all, is fenced off.
 */
class LeaseRecoveryTest {

    static final String LEASE = "2s";
    static final int ITEMS = 300;

    @RegisterExtension
    static final QuarkusUnitTest APP = RepositoryTestSupport.repositoryApp(Jobs.class, SimpleMeters.class)
            .overrideConfigKey("quarkus.durable-batch.lease.sweeper-enabled", "true")
            .overrideConfigKey("quarkus.durable-batch.lease.duration", LEASE)
            .overrideConfigKey("quarkus.durable-batch.lease.sweep-interval", "200ms")
            .overrideConfigKey("quarkus.durable-batch.control.poll-interval", "5s");

    /** Holds the chunks of runs named "slow-..." until released. */
    static final CountDownLatch RELEASE = new CountDownLatch(1);
    static final CountDownLatch IN_CHUNK = new CountDownLatch(1);

    @Singleton
    static class Jobs {
        @Inject
        AgroalDataSource dataSource;

        /** Imports ids [0, ITEMS) of a run into lease_target, 10 per chunk. */
        JobDefinition importing(String name, int restarts) {
            return Job.named(name).restartOnOwnerLoss(restarts)
                    .start(chunk("import", 10)
                            .reader(context -> new Ids(context.parameters().string("run")))
                            .writer(context -> (List<? extends Long> items) -> write(items))
                            .build())
                    .build();
        }

        void write(List<? extends Long> items) throws Exception {
            String run = RUNS.get();
            if (run != null && run.startsWith("slow") && items.get(0) == 20) {
                IN_CHUNK.countDown();
                RELEASE.await(30, TimeUnit.SECONDS);
            }
            try (Connection connection = dataSource.getConnection();
                    PreparedStatement insert = connection.prepareStatement("INSERT INTO lease_target VALUES (?, ?)")) {
                for (Long item : items) {
                    insert.setString(1, RUNS.get());
                    insert.setLong(2, item);
                    insert.addBatch();
                }
                insert.executeBatch();
            }
        }

        @Produces
        JobDefinition restartable() {
            return importing("leaseRestartable", 1);
        }

        @Produces
        JobDefinition notRestartable() {
            return importing("leaseFailing", 0);
        }

        @Produces
        JobDefinition longTasklet() {
            return Job.named("leaseLongTasklet")
                    .start(tasklet("sleep", context -> {
                        Thread.sleep(Duration.parse("PT" + LEASE).toMillis() * 3);
                        return RepeatStatus.FINISHED;
                    }))
                    .build();
        }

        @Produces
        JobDefinition userError() {
            return Job.named("leaseUserError")
                    .start(tasklet("assert", context -> {
                        throw new AssertionError("user code broke an invariant\0 with a NUL byte");
                    }))
                    .build();
        }
    }

    /** The run a reader thread works for (the writer runs on the same thread). */
    static final ThreadLocal<String> RUNS = new ThreadLocal<>();

    /** Ids [checkpoint, ITEMS) of a run, one item an id. */
    static final class Ids implements ItemReader<Long> {
        private final String run;
        private long next;

        Ids(String run) {
            this.run = run;
        }

        @Override
        public void open(Optional<Checkpoint> checkpoint) {
            next = checkpoint.map(c -> ByteBuffer.wrap(c.bytes()).getLong()).orElse(0L);
            RUNS.set(run);
        }

        @Override
        public Long read() {
            return next < ITEMS ? next++ : null;
        }

        @Override
        public Checkpoint checkpoint() {
            return Checkpoint.of(ByteBuffer.allocate(Long.BYTES).putLong(next).array());
        }
    }

    @Inject
    SimpleMeterRegistry meters;

    @Inject
    KernelRepository repository;

    @Inject
    JobOperator operator;

    @Inject
    JobRegistry registry;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    RepositoryTables tables;

    @Inject
    KernelIdentity identity;

    @BeforeEach
    void createTarget() throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS lease_target (run varchar(64) NOT NULL, id bigint NOT NULL, "
                    + "PRIMARY KEY (run, id))");
        }
    }

    @Test
    void anExecutionWhoseOwnerDiedIsRecoveredByTheSweeperWithItsSteps() throws Exception {
        Left left = leftByDeadProcess("leaseFailing", 50);
        JobExecution recovered = awaitStatus(left.execution(), ExecutionStatus.FAILED, Duration.ofSeconds(20));
        RecoveryDecision decision = tx(() -> repository.recoveryDecision(left.execution())).orElseThrow();
        assertEquals("system:lease", decision.actor().value());
        assertEquals("OWNER_LOST", decision.reason().value());
        assertEquals(1, decision.resolvedSteps());
        StepExecution step = tx(() -> repository.stepExecutions(left.execution())).get(0);
        assertEquals(ExecutionStatus.FAILED, step.status());
        assertEquals("RECOVER",
                tx(() -> repository.findOperatorRequest(OperatorAction.RECOVER, decision.actor(), decision.operationId()))
                        .orElseThrow().action().name());
        assertTrue(recovered.failure().orElseThrow().message().contains("OWNER_LOST"), recovered.toString());
        // the job does not restart itself: restartOnOwnerLoss(0), an operator's restart resumes it
        Thread.sleep(1000);
        assertEquals(1, tx(() -> repository.jobExecutions(left.instance())).size());
        JobExecution restarted = operator.await(operator.restart(left.execution(), OperatorCall.by("alice")),
                Duration.ofMinutes(1));
        assertEquals(ExecutionStatus.COMPLETED, restarted.status());
        assertEquals(ITEMS, rows(left.run()), "the restart resumed at the dead owner's checkpoint: every id once");
    }

    /**
     * A frozen owner's session still inside a transaction (frozen in the middle of a statement, where
     * no idle timeout of the server reaches it) holds its step's row: the sweeper ends the sessions
     * marked with the dead owner's boot id, and the recovery goes through.
     */
    @Test
    void theSessionsOfAFrozenOwnerAreEndedSoThatItsExecutionIsRecovered() throws Exception {
        Left left = leftByDeadProcess("leaseFailing", 30);
        String bootId = left.run().substring(0, 8);
        Properties marked = new Properties();
        marked.setProperty("user", System.getProperty("quarkus.datasource.username"));
        marked.setProperty("password", System.getProperty("quarkus.datasource.password"));
        marked.setProperty("ApplicationName", "durable-batch " + bootId + " frozen");
        try (Connection frozen = DriverManager.getConnection(System.getProperty("quarkus.datasource.jdbc.url"), marked)) {
            frozen.setAutoCommit(false);
            try (PreparedStatement lock = frozen.prepareStatement(
                    "UPDATE " + tables.prefix()
                            + "step_execution SET last_updated = last_updated WHERE job_execution_id = ?")) {
                lock.setLong(1, left.execution().value());
                assertEquals(1, lock.executeUpdate());
            }
            JobExecution recovered = awaitStatus(left.execution(), ExecutionStatus.FAILED, Duration.ofSeconds(20));
            assertEquals(ExecutionStatus.FAILED, tx(() -> repository.stepExecutions(recovered.id())).get(0).status());
            assertThrows(SQLException.class, frozen::commit, "the frozen session was ended: it commits nothing");
        }
    }

    /**
     * An execution of this very process that no longer runs here (its runner gave it up to recovery,
     * as after a database outage longer than the lease) is recovered by this process's own sweeper,
     * which ends none of its own sessions: it once ended its own transaction, the one holding the
     * execution's row lock, and the recovery failed and repeated for ever.
     */
    @Test
    void anOwnExecutionNoLongerRunningHereIsRecoveredByItsOwnSweeperWithoutEndingItsOwnSessions() throws Exception {
        Left left = leftByDeadProcess("leaseRestartable", 40);
        try (Connection connection = dataSource.getConnection();
                PreparedStatement own = connection.prepareStatement("UPDATE " + tables.prefix()
                        + "job_execution SET owner_token = ? WHERE id = ?")) {
            own.setString(1, identity.owner().value());
            own.setLong(2, left.execution().value());
            assertEquals(1, own.executeUpdate());
        }
        JobExecution restarted = awaitRestartCompleted(left.instance(), Duration.ofSeconds(30));
        assertEquals(ExecutionStatus.COMPLETED, restarted.status());
        assertEquals(ITEMS, rows(left.run()), "resumed from the committed checkpoint, nothing twice");
        RecoveryDecision decision = tx(() -> repository.recoveryDecision(left.execution())).orElseThrow();
        assertEquals("system:lease", decision.actor().value());
    }

    @Test
    void anExecutionWhoseOwnerDiedIsRestartedAutomaticallyWhenTheJobSaysSo() throws Exception {
        double recoveries = count(meters, "durable.batch.lease.recoveries", "job", "leaseRestartable");
        double restarts = count(meters, "durable.batch.lease.restarts", "job", "leaseRestartable");
        Left left = leftByDeadProcess("leaseRestartable", 120);
        JobExecution restarted = awaitRestartCompleted(left.instance(), Duration.ofSeconds(30));
        assertEquals(recoveries + 1, count(meters, "durable.batch.lease.recoveries", "job", "leaseRestartable"),
                "the recovery is measured");
        assertEquals(restarts + 1, count(meters, "durable.batch.lease.restarts", "job", "leaseRestartable"),
                "the restart is measured");
        assertEquals(2, restarted.attempt());
        assertEquals(ITEMS, rows(left.run()), "resumed from the committed checkpoint, nothing twice");
        var audit = tx(() -> repository.findOperatorRequest(OperatorAction.RESTART,
                io.durablebatch.execution.ActorRef.of("system:lease"),
                io.durablebatch.execution.OperationId.of("owner-loss-restart:" + left.execution()))).orElseThrow();
        assertEquals("system:lease", audit.actor().value());
        assertEquals(restarted.id(), audit.target().jobExecutionId().orElseThrow());
    }

    @Test
    void automaticRestartsStopAtTheJobsLimit() throws Exception {
        Left left = leftByDeadProcess("leaseRestartable", 10);
        // the instance was restarted automatically once already (restartOnOwnerLoss(1)): as the audit says
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert = connection.prepareStatement(
                        "INSERT INTO dbatch_operator_request (action, operation_id, actor, job_instance_id, request_digest, "
                                + "outcome, recorded_at) VALUES ('RESTART', ?, 'system:lease', ?, sha256('x'), 'LAUNCHED', now())")) {
            insert.setString(1, "earlier-restart-" + left.run());
            insert.setLong(2, left.instance().value());
            insert.executeUpdate();
        }
        awaitStatus(left.execution(), ExecutionStatus.FAILED, Duration.ofSeconds(20));
        Thread.sleep(1000);
        assertEquals(1, tx(() -> repository.jobExecutions(left.instance())).size(),
                "the limit is reached: the execution stays FAILED for an operator");
    }

    @Test
    void anExecutionWithALiveLeaseIsNeverSweptEvenWhenItsChunksTakeLongerThanTheLease() throws Exception {
        JobExecutionId id = operator.start("leaseLongTasklet", JobParameters.of("run", UUID.randomUUID().toString()),
                OperatorCall.by("test"));
        JobExecution ended = operator.await(id, Duration.ofSeconds(30));
        assertEquals(ExecutionStatus.COMPLETED, ended.status(), "the heartbeat kept the lease of a 6 s tasklet alive");
        assertTrue(tx(() -> repository.recoveryDecision(id)).isEmpty());
    }

    @Test
    void anOperatorsRecoveryOfALiveLeaseIsRefusedUnlessTheOwnerIsDeclaredDeadAndTheOwnerIsThenFencedOff()
            throws Exception {
        String run = "slow-" + UUID.randomUUID();
        JobExecutionId id = operator.start("leaseFailing", JobParameters.of("run", run), OperatorCall.by("test"));
        assertTrue(IN_CHUNK.await(30, TimeUnit.SECONDS));
        JobExecution running = tx(() -> repository.getJobExecution(id)).orElseThrow();
        // another process's operator: the lease is live
        RepositoryTestSupport.assertRefused(RepositoryError.EXECUTION_LEASE_LIVE, () -> tx(() -> repository
                .recoverJobExecution(id, new io.durablebatch.repository.RecoveryRequest(
                        io.durablebatch.execution.OperationId.of("op-" + run), io.durablebatch.execution.ActorRef
                                .of("bob"),
                        ReasonCode.of("OPERATOR"), RecoveryResolution.FAILED, running.version(),
                        Instant.now()))));
        assertEquals(ExecutionStatus.STARTED, tx(() -> repository.getJobExecution(id)).orElseThrow().status(),
                "a refusal changes nothing");
        // declared dead: recovered at once
        tx(() -> repository.recoverJobExecution(id, new io.durablebatch.repository.RecoveryRequest(
                io.durablebatch.execution.OperationId.of("op2-" + run), io.durablebatch.execution.ActorRef.of("bob"),
                ReasonCode.of("OPERATOR"), RecoveryResolution.FAILED, running.version(), Instant.now(), true)));
        RELEASE.countDown();
        // the owner was alive after all: its held chunk (ids 20..29) must not commit, nor anything after it
        JobExecution ended = operator.await(id, Duration.ofSeconds(30));
        assertEquals(ExecutionStatus.FAILED, ended.status());
        Thread.sleep(500);
        assertEquals(20, rows(run), "the fenced chunk rolled back with its writes");
        StepExecution step = tx(() -> repository.stepExecutions(id)).get(0);
        assertEquals(ExecutionStatus.FAILED, step.status());
        assertEquals(20, ByteBuffer.wrap(step.checkpoint().orElseThrow().bytes()).getLong());
    }

    @Test
    void anErrorOfUserCodeFailsTheStepCleanlyAndItsMessageIsStorable() throws Exception {
        JobExecutionId id = operator.start("leaseUserError", JobParameters.of("run", UUID.randomUUID().toString()),
                OperatorCall.by("test"));
        JobExecution ended = operator.await(id, Duration.ofSeconds(30));
        assertEquals(ExecutionStatus.FAILED, ended.status());
        StepExecution step = tx(() -> repository.stepExecutions(id)).get(0);
        assertEquals(ExecutionStatus.FAILED, step.status());
        assertEquals("java.lang.AssertionError", step.failure().orElseThrow().type());
        assertTrue(step.failure().orElseThrow().message().contains("invariant\uFFFD with a NUL byte"),
                step.failure().orElseThrow().message());
        assertFalse(tx(() -> repository.stepExecutions(id)).stream().anyMatch(s -> s.status().isActive()));
    }

    // --- helpers ---

    /** An execution and its instance and run, as a process that died would leave them. */
    record Left(JobExecutionId execution, JobInstanceId instance, String run) {
    }

    /**
     * What a killed process leaves: an execution claimed by a token no live process holds, STARTED,
     * with one STARTED step whose last chunk recorded {@code committed} items (their rows written),
     * and a lease that runs out after the lease duration.
     */
    Left leftByDeadProcess(String job, long committed) throws SQLException {
        String run = UUID.randomUUID().toString();
        JobDefinition definition = registry.get(job);
        JobExecution execution = tx(() -> {
            JobInstanceId instance = repository.selectOrCreateJobInstance(JobParameters.of("run", run)
                    .keyFor(JobName.of(job))).instance().id();
            return claimAndStart(
                    repository.createJobExecution(JobExecutionRequest.of(instance).definedBy(definition.identity())), committed,
                    run);
        });
        return new Left(execution.id(), execution.jobInstanceId(), run);
    }

    /** The next attempt of {@code previous}'s instance left by a dead process after a restart. */
    Left leftByDeadProcessRestarting(Left previous, long committed) throws SQLException {
        JobDefinition definition = registry.get("leaseRestartable");
        JobExecution execution = tx(() -> claimAndStart(
                repository.createJobExecution(JobExecutionRequest.of(previous.instance()).definedBy(definition.identity())),
                committed, previous.run()));
        return new Left(execution.id(), execution.jobInstanceId(), previous.run());
    }

    private JobExecution claimAndStart(JobExecution created, long committed, String run) {
        JobExecution claimed = repository.claimExecutionOwner(created.id(), created.version(),
                OwnerToken.of("dead-node/" + run.substring(0, 8)), Instant.now());
        JobExecution started = repository.transitionJobExecution(claimed.id(), claimed.version(),
                LifecycleTransition.to(ExecutionStatus.STARTED, Instant.now()));
        StepExecution step = repository.createFlowStepExecution(started.id(), StepName.of("import"),
                io.durablebatch.repository.flow.NodeId.of("import"), io.durablebatch.repository.flow.StartLimit.UNLIMITED);
        StepExecution running = repository.transitionStepExecution(step.id(), step.version(),
                LifecycleTransition.to(ExecutionStatus.STARTED, Instant.now()));
        if (committed > 0) {
            repository.recordStepProgress(running.id(), running.version(), Optional.of(Checkpoint.of(
                    ByteBuffer.allocate(Long.BYTES).putLong(committed).array())),
                    new StepCounters(committed, committed, 0, 0, 0, 0, committed / 10, 0), Instant.now());
            try (Connection connection = dataSource.getConnection();
                    PreparedStatement insert = connection.prepareStatement(
                            "INSERT INTO lease_target SELECT ?, g FROM generate_series(0, ? - 1) g")) {
                insert.setString(1, run);
                insert.setLong(2, committed);
                insert.executeUpdate();
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }
        return started;
    }

    long rows(String run) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(
                        "SELECT count(*), count(DISTINCT id) FROM lease_target WHERE run = ?")) {
            statement.setString(1, run);
            try (ResultSet row = statement.executeQuery()) {
                row.next();
                assertEquals(row.getLong(1), row.getLong(2), "no id twice");
                return row.getLong(1);
            }
        }
    }

    JobExecution awaitStatus(JobExecutionId id, ExecutionStatus status, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            JobExecution current = tx(() -> repository.getJobExecution(id)).orElseThrow();
            if (current.status() == status) {
                return current;
            }
            assertTrue(System.nanoTime() < deadline, "execution " + id + " is " + current.status() + ", not " + status);
            Thread.sleep(50);
        }
    }

    JobExecution awaitAttempt(JobInstanceId instance, int attempt, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<JobExecution> executions = tx(() -> repository.jobExecutions(instance));
            if (executions.size() >= attempt) {
                return executions.get(attempt - 1);
            }
            assertTrue(System.nanoTime() < deadline, "instance " + instance + " never reached attempt " + attempt);
            Thread.sleep(50);
        }
    }

    JobExecution awaitRestartCompleted(JobInstanceId instance, Duration timeout) throws InterruptedException {
        JobExecution restart = awaitAttempt(instance, 2, timeout);
        return operator.await(restart.id(), timeout);
    }
}
