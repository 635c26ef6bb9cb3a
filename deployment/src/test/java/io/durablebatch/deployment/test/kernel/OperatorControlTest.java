package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.deployment.test.kernel.KernelTestSupport.awaitRows;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.call;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.distinctIds;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.freshRun;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.opens;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.pausing;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.rows;
import static io.durablebatch.job.Steps.chunk;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.deployment.test.kernel.KernelTestSupport.RangeReader;
import io.durablebatch.deployment.test.kernel.KernelTestSupport.TargetWriter;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.ReasonCode;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.RecoveryResolution;
import io.durablebatch.repository.RecoveryResult;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.runtime.job.RunningExecutions;
import io.quarkus.test.QuarkusUnitTest;

/** Stop at a chunk boundary, graceful shutdown, abandon and recovery through the JobOperator. */
class OperatorControlTest extends KernelTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, KernelTest.class,
                    KernelTestSupport.class, Jobs.class));

    static final int ITEMS = 3000;
    static final int CHUNK = 10;

    @Singleton
    static class Jobs {
        @Inject
        AgroalDataSource dataSource;

        /** A slow chunk step: 300 chunks of 10, 5 ms each. */
        @Produces
        JobDefinition slow() {
            return Job.named("slow")
                    .start(chunk("load", CHUNK)
                            .reader(context -> new RangeReader(context.parameters().string("run"), ITEMS))
                            .writer(context -> pausing(5, new TargetWriter(dataSource)))
                            .build())
                    .build();
        }
    }

    @Inject
    RunningExecutions running;

    StepExecution onlyStep(JobExecution execution) {
        return RepositoryTestSupport.tx(() -> repository.stepExecutions(execution.id())).get(0);
    }

    void assertStoppedAtAChunkBoundaryAndRestartCompletes(String run, JobExecution stopped) throws Exception {
        assertEquals(ExecutionStatus.STOPPED, stopped.status());
        StepExecution step = onlyStep(stopped);
        assertEquals(ExecutionStatus.STOPPED, step.status());
        long written = rows(dataSource, run);
        assertTrue(written > 0 && written < ITEMS, "stopped mid-run after " + written + " rows");
        assertEquals(0, written % CHUNK, "stopped at a chunk boundary");
        assertEquals(written, step.counters().writeCount());

        JobExecution restarted = operator.await(operator.restart(stopped.id(), call()), Duration.ofMinutes(1));
        assertEquals(ExecutionStatus.COMPLETED, restarted.status());
        assertEquals(List.of("0", Long.toString(written)), opens(run), "the restart resumed after the last chunk");
        assertEquals(ITEMS, rows(dataSource, run));
        assertEquals(ITEMS, distinctIds(dataSource, run));
    }

    @Test
    void aStoppedExecutionEndsStoppedAtAChunkBoundaryAndRestarts() throws Exception {
        String run = freshRun();
        JobExecutionId id = operator.start("slow", KernelTestSupport.run(run), call());
        awaitRows(dataSource, run, 200);
        operator.stop(id, call());
        assertStoppedAtAChunkBoundaryAndRestartCompletes(run, operator.await(id, Duration.ofSeconds(30)));
    }

    @Test
    void shutdownStopsRunningExecutionsAtTheirNextChunkBoundary() throws Exception {
        String run = freshRun();
        JobExecutionId id = operator.start("slow", KernelTestSupport.run(run), call());
        awaitRows(dataSource, run, 200);
        assertEquals(List.of(), running.stopAll(Duration.ofSeconds(30)), "every execution stopped in time");
        assertStoppedAtAChunkBoundaryAndRestartCompletes(run, operator.await(id, Duration.ofSeconds(1)));
    }

    @Test
    void anAbandonedExecutionsInstanceNeverRunsAgain() throws Exception {
        String run = freshRun();
        JobExecutionId id = operator.start("slow", KernelTestSupport.run(run), call());
        awaitRows(dataSource, run, 100);
        operator.stop(id, call());
        operator.await(id, Duration.ofSeconds(30));
        JobExecution abandoned = operator.abandon(id, call());
        assertEquals(ExecutionStatus.ABANDONED, abandoned.status());
        RepositoryTestSupport.assertRefused(RepositoryError.INSTANCE_ABANDONED,
                () -> operator.start("slow", KernelTestSupport.run(run), call()));
        RepositoryTestSupport.assertRefused(RepositoryError.ILLEGAL_TRANSITION, () -> operator.abandon(id, call()));
    }

    @Test
    void onlyTheLatestAttemptIsRestartedOrAbandoned() throws Exception {
        String run = freshRun();
        JobExecutionId first = operator.start("slow", KernelTestSupport.run(run), call());
        awaitRows(dataSource, run, 100);
        operator.stop(first, call());
        operator.await(first, Duration.ofSeconds(30));
        JobExecutionId second = operator.restart(first, call());
        awaitRows(dataSource, run, rows(dataSource, run) + 100);
        operator.stop(second, call());
        assertEquals(ExecutionStatus.STOPPED, operator.await(second, Duration.ofSeconds(30)).status());
        JobInstanceId instance = RepositoryTestSupport.tx(() -> repository.getJobExecution(first)).orElseThrow()
                .jobInstanceId();
        List<JobExecution> before = RepositoryTestSupport.tx(() -> repository.jobExecutions(instance));

        var restart = RepositoryTestSupport.assertRefused(RepositoryError.EXECUTION_SUPERSEDED,
                () -> operator.restart(first, call()));
        assertTrue(restart.getMessage().contains("latest attempt is execution " + second), restart.getMessage());
        RepositoryTestSupport.assertRefused(RepositoryError.EXECUTION_SUPERSEDED, () -> operator.abandon(first, call()));
        assertEquals(before, RepositoryTestSupport.tx(() -> repository.jobExecutions(instance)),
                "the refusals changed nothing");

        JobExecution completed = operator.await(operator.restart(second, call()), Duration.ofMinutes(1));
        assertEquals(ExecutionStatus.COMPLETED, completed.status(), "the latest attempt restarts");
        assertEquals(ITEMS, distinctIds(dataSource, run));
    }

    @Test
    void anOrphanedExecutionIsRecoveredAsFailedAndRestartsFromItsCheckpoint() throws Exception {
        // an attempt recorded by a process that died before running it
        String run = freshRun();
        JobParameters parameters = KernelTestSupport.run(run);
        JobExecution orphan = RepositoryTestSupport.tx(() -> repository.createJobExecution(JobExecutionRequest
                .of(repository.selectOrCreateJobInstance(parameters.keyFor(io.durablebatch.execution.JobName.of("slow")))
                        .instance().id())));
        RecoveryResult recovered = operator.recover(orphan.id(), orphan.version(), RecoveryResolution.FAILED,
                ReasonCode.of("OWNER_LOST"), call());
        assertEquals(ExecutionStatus.FAILED, recovered.execution().status());
        assertEquals("test", recovered.decision().actor().value());
        JobExecution restarted = operator.await(operator.restart(orphan.id(), call()), Duration.ofMinutes(1));
        assertEquals(ExecutionStatus.COMPLETED, restarted.status());
        assertEquals(ITEMS, rows(dataSource, run));
    }

    @Test
    void aRunningExecutionIsNotRecoveredByItsOwnProcess() throws Exception {
        String run = freshRun();
        JobExecutionId id = operator.start("slow", KernelTestSupport.run(run), call());
        awaitRows(dataSource, run, 50);
        JobExecution current = RepositoryTestSupport.tx(() -> repository.getJobExecution(id)).orElseThrow();
        var refusal = RepositoryTestSupport.assertRefused(RepositoryError.EXECUTION_LEASE_LIVE,
                () -> operator.recover(id, current.version(), RecoveryResolution.FAILED, ReasonCode.of("OWNER_LOST"),
                        call()));
        assertTrue(refusal.getMessage().contains("runs in this process"), refusal.getMessage());
        RepositoryTestSupport.assertRefused(RepositoryError.EXECUTION_LEASE_LIVE,
                () -> operator.recover(id, current.version(), RecoveryResolution.FAILED, ReasonCode.of("OWNER_LOST"),
                        true, call()));
        assertEquals(ExecutionStatus.STARTED, RepositoryTestSupport.tx(() -> repository.getJobExecution(id))
                .orElseThrow().status(), "a refusal changes nothing");
        operator.stop(id, call());
        assertEquals(ExecutionStatus.STOPPED, operator.await(id, Duration.ofSeconds(30)).status());
    }
}
