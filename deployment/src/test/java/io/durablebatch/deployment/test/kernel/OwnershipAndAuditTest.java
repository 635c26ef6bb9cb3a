package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.deployment.test.kernel.KernelTestSupport.awaitRows;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.freshRun;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.rows;
import static io.durablebatch.job.Steps.chunk;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.deployment.test.kernel.KernelTestSupport.RangeReader;
import io.durablebatch.deployment.test.kernel.KernelTestSupport.Row;
import io.durablebatch.deployment.test.kernel.KernelTestSupport.TargetWriter;
import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.OperationId;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.RecoveryDecision;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.control.OperatorAction;
import io.durablebatch.repository.control.OperatorRecord;
import io.durablebatch.repository.control.OwnerToken;
import io.durablebatch.runtime.job.KernelIdentity;
import io.durablebatch.runtime.job.StartupRecovery;
import io.quarkus.test.QuarkusUnitTest;

/** Ownership, durable stop requests, the control poller, the operator audit and startup recovery. */
class OwnershipAndAuditTest extends KernelTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, KernelTest.class,
                    KernelTestSupport.class, Jobs.class))
            .overrideConfigKey("quarkus.durable-batch.node-id", "audit-node")
            // startup recovery is tested alone: no sweeper recovers the executions it is given
            .overrideConfigKey("quarkus.durable-batch.lease.sweeper-enabled", "false")
            .overrideConfigKey("quarkus.durable-batch.control.poll-interval", "200ms");

    static final int ITEMS = 2000;
    /** Holds the writer of the run named "held-..." in its first chunk until released. */
    static final CountDownLatch IN_FIRST_CHUNK = new CountDownLatch(1);
    static final CountDownLatch RELEASE = new CountDownLatch(1);

    @Singleton
    static class Jobs {
        @Inject
        AgroalDataSource dataSource;

        @Produces
        JobDefinition owned() {
            TargetWriter target = new TargetWriter(dataSource);
            return Job.named("owned")
                    .start(chunk("load", 10)
                            .reader(context -> new RangeReader(context.parameters().string("run"), ITEMS))
                            .writer(context -> (List<? extends Row> items) -> {
                                Row first = items.get(0);
                                if (first.run().startsWith("held") && first.id() == 0) {
                                    IN_FIRST_CHUNK.countDown();
                                    RELEASE.await(30, TimeUnit.SECONDS);
                                }
                                Thread.sleep(2);
                                target.write(items);
                            })
                            .build())
                    .build();
        }
    }

    @Inject
    KernelIdentity identity;

    @Inject
    StartupRecovery startupRecovery;

    String ownerOf(JobExecutionId id) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(
                        "SELECT owner_token FROM dbatch_job_execution WHERE id = ?")) {
            statement.setLong(1, id.value());
            try (ResultSet row = statement.executeQuery()) {
                row.next();
                return row.getString(1);
            }
        }
    }

    @Test
    void aLaunchClaimsTheExecutionForThisProcessAndIsAuditedOnce() throws Exception {
        String run = freshRun();
        OperatorCall call = OperatorCall.of("launch-" + run, "alice");
        JobExecutionId id = operator.start("owned", KernelTestSupport.run(run), call);
        assertTrue(identity.owner().value().startsWith("audit-node/"), identity.owner().value());
        assertEquals(identity.owner().value(), ownerOf(id));
        assertEquals(id, operator.start("owned", KernelTestSupport.run(run), call),
                "a retried request is answered from its record, not launched again");
        assertEquals(ExecutionStatus.COMPLETED, operator.await(id, Duration.ofMinutes(1)).status());
        OperatorRecord record = RepositoryTestSupport.tx(() -> repository.findOperatorRequest(OperatorAction.START,
                call.actor(), call.operationId())).orElseThrow();
        assertEquals(ActorRef.of("alice"), record.actor());
        assertEquals(id, record.target().jobExecutionId().orElseThrow());
        assertEquals(1, RepositoryTestSupport.tx(() -> repository.jobExecutions(repository.findJobInstance(
                KernelTestSupport.run(run).keyFor(JobName.of("owned"))).orElseThrow().id())).size());
        RepositoryTestSupport.assertRefused(RepositoryError.OPERATION_CONFLICT,
                () -> operator.start("owned", KernelTestSupport.run(freshRun()), call));
    }

    @Test
    void aStopRequestedByAnotherProcessIsSeenAtTheNextChunkCommit() throws Exception {
        String run = freshRun();
        JobExecutionId id = operator.start("owned", KernelTestSupport.run(run), OperatorCall.by("alice"));
        awaitRows(dataSource, run, 200);
        // as an operator's process would: a durable request only, no signal to this process
        RepositoryTestSupport.tx(() -> {
            JobExecution current = repository.getJobExecution(id).orElseThrow();
            return repository.requestExecutionStop(id, current.version(), ActorRef.of("bob@elsewhere"), Instant.now());
        });
        JobExecution stopped = operator.await(id, Duration.ofSeconds(30));
        assertEquals(ExecutionStatus.STOPPED, stopped.status());
        long written = rows(dataSource, run);
        assertTrue(written < ITEMS && written % 10 == 0, "stopped at a chunk boundary after " + written + " rows");
        JobExecution restarted = operator.await(operator.restart(id, OperatorCall.by("alice")), Duration.ofMinutes(1));
        assertEquals(ExecutionStatus.COMPLETED, restarted.status());
        assertEquals(ITEMS, rows(dataSource, run));
    }

    @Test
    void theControlPollerObservesAStopDuringALongChunk() throws Exception {
        String run = "held-" + freshRun();
        OperatorCall call = OperatorCall.by("alice");
        JobExecutionId id = operator.start("owned", KernelTestSupport.run(run), call);
        assertTrue(IN_FIRST_CHUNK.await(30, TimeUnit.SECONDS));
        RepositoryTestSupport.tx(() -> {
            JobExecution current = repository.getJobExecution(id).orElseThrow();
            return repository.requestExecutionStop(id, current.version(), ActorRef.of("bob@elsewhere"), Instant.now());
        });
        // no chunk commits while the writer is held: only the poller can move the execution to STOPPING
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (RepositoryTestSupport.tx(() -> repository.getJobExecution(id)).orElseThrow()
                .status() != ExecutionStatus.STOPPING) {
            assertTrue(System.nanoTime() < deadline, "the poller never observed the stop request");
            Thread.sleep(20);
        }
        RELEASE.countDown();
        JobExecution stopped = operator.await(id, Duration.ofSeconds(30));
        assertEquals(ExecutionStatus.STOPPED, stopped.status());
        assertEquals(10, rows(dataSource, run), "the held chunk committed, nothing after it");
    }

    @Test
    void operatorRequestsAreAuditedWithTheirActor() throws Exception {
        String run = freshRun();
        JobExecutionId id = operator.start("owned", KernelTestSupport.run(run), OperatorCall.by("alice"));
        awaitRows(dataSource, run, 100);
        OperatorCall stop = OperatorCall.of("stop-" + run, "carol");
        operator.stop(id, stop);
        operator.stop(id, stop); // a retry is answered from the record
        assertEquals(ExecutionStatus.STOPPED, operator.await(id, Duration.ofSeconds(30)).status());
        OperatorCall abandon = OperatorCall.of("abandon-" + run, "dave");
        assertEquals(ExecutionStatus.ABANDONED, operator.abandon(id, abandon).status());
        assertEquals(ExecutionStatus.ABANDONED, operator.abandon(id, abandon).status(), "replayed, not refused");
        OperatorRecord stopRecord = RepositoryTestSupport.tx(() -> repository.findOperatorRequest(OperatorAction.STOP,
                stop.actor(), stop.operationId())).orElseThrow();
        assertEquals("carol", stopRecord.actor().value());
        assertEquals("STOP_REQUESTED", stopRecord.outcome());
        assertEquals("dave", RepositoryTestSupport.tx(() -> repository.findOperatorRequest(OperatorAction.ABANDON,
                abandon.actor(), abandon.operationId())).orElseThrow().actor().value());
    }

    @Test
    void startupRecoveryResolvesWhatAPreviousRunOfThisNodeLeftActive() throws Exception {
        JobParameters left = KernelTestSupport.run(freshRun());
        JobParameters otherNode = KernelTestSupport.run(freshRun());
        JobExecution previousBoot = leftActiveBy(left, OwnerToken.of("audit-node/0ldb00t"));
        JobExecution elsewhere = leftActiveBy(otherNode, OwnerToken.of("audit-node-2/0ldb00t"));
        JobExecution liveReplica = leftActiveBy(KernelTestSupport.run(freshRun()), OwnerToken.of("audit-node/l1ve"));
        expireLease(previousBoot.id());
        expireLease(elsewhere.id());

        assertTrue(startupRecovery.recoverPreviousRuns() >= 1);
        assertEquals(ExecutionStatus.STARTED, RepositoryTestSupport.tx(() -> repository.getJobExecution(liveReplica.id()))
                .orElseThrow().status(), "a live lease: another replica with this node id runs it");

        JobExecution recovered = RepositoryTestSupport.tx(() -> repository.getJobExecution(previousBoot.id())).orElseThrow();
        assertEquals(ExecutionStatus.FAILED, recovered.status());
        RecoveryDecision decision = RepositoryTestSupport.tx(() -> repository.recoveryDecision(previousBoot.id()))
                .orElseThrow();
        assertEquals("system:startup", decision.actor().value());
        assertEquals("PREVIOUS_BOOT", decision.reason().value());
        OperatorRecord audit = RepositoryTestSupport.tx(() -> repository.findOperatorRequest(OperatorAction.RECOVER,
                decision.actor(), decision.operationId())).orElseThrow();
        assertEquals("system:startup", audit.actor().value());
        assertEquals(ExecutionStatus.STARTED, RepositoryTestSupport.tx(() -> repository.getJobExecution(elsewhere.id()))
                .orElseThrow().status(), "another node's execution is never touched");
        JobExecution restarted = operator.await(operator.restart(previousBoot.id(), OperatorCall.by("alice")),
                Duration.ofMinutes(1));
        assertEquals(ExecutionStatus.COMPLETED, restarted.status());
        // tidy up, so later recoveries of these node ids find nothing of this test
        tidy(elsewhere);
        tidy(liveReplica);
    }

    /** Abandons an execution this test left active, unless a sweeper recovered it meanwhile. */
    void tidy(JobExecution left) {
        JobExecution current = RepositoryTestSupport.tx(() -> repository.getJobExecution(left.id())).orElseThrow();
        if (current.status().isActive()) {
            RepositoryTestSupport.tx(() -> repository.recoverJobExecution(left.id(),
                    new io.durablebatch.repository.RecoveryRequest(OperationId.of("tidy-" + left.id()), ActorRef.of("test"),
                            io.durablebatch.execution.ReasonCode.of("TEST"),
                            io.durablebatch.repository.RecoveryResolution.ABANDONED, current.version(), Instant.now(),
                            true)));
        }
    }

    /** The lease of {@code id} ran out, as it does once its owner died. */
    void expireLease(JobExecutionId id) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(
                        "UPDATE dbatch_job_execution SET lease_expires_at = now() - interval '1 second' WHERE id = ?")) {
            statement.setLong(1, id.value());
            statement.executeUpdate();
        }
    }

    /** An execution as a process that died would leave it: claimed, STARTED, never ended. */
    JobExecution leftActiveBy(JobParameters parameters, OwnerToken owner) {
        return RepositoryTestSupport.tx(() -> {
            JobDefinition definition = io.quarkus.arc.Arc.container().instance(io.durablebatch.runtime.job.JobRegistry.class)
                    .get().get("owned");
            JobExecution created = repository.createJobExecution(JobExecutionRequest.of(repository.selectOrCreateJobInstance(
                    parameters.keyFor(JobName.of("owned"))).instance().id()).definedBy(definition.identity()));
            JobExecution claimed = repository.claimExecutionOwner(created.id(), created.version(), owner, Instant.now());
            return repository.transitionJobExecution(claimed.id(), claimed.version(),
                    io.durablebatch.repository.LifecycleTransition.to(ExecutionStatus.STARTED, Instant.now()));
        });
    }
}
