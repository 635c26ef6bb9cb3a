package io.durablebatch.deployment.test.cost;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertStatements;
import static io.durablebatch.deployment.test.RepositoryTestSupport.freshKey;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.execution.ExecutionStatus.COMPLETED;
import static io.durablebatch.execution.ExecutionStatus.FAILED;
import static io.durablebatch.execution.ExecutionStatus.STARTED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.charset.StandardCharsets;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryFixtures;
import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.DefinitionIdentity;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobInstance;
import io.durablebatch.execution.JobInstanceKey;
import io.durablebatch.execution.PlanFingerprint;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepName;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The launch path's cost, counted: each call a launch makes issues exactly one SQL statement on its
 * success path, so a one-step job launches and completes in seven (a chunk commit adds one).
 */
class LaunchPathStatementCountTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp();

    @Inject
    KernelRepository repository;

    @Inject
    RepositoryFixtures given;

    @Inject
    MetadataSql sql;

    @Test
    void aOneStepJobLaunchesAndCompletesInSevenStatements() {
        JobInstanceKey key = freshKey("launch-cost");
        long before = sql.statementsExecutedOnThisThread();

        // The units of work a kernel commits: launch, start, step start, chunk, step end, job end.
        JobExecution created = tx(() -> {
            JobInstance instance = assertStatements(sql, 1, () -> repository.selectOrCreateJobInstance(key)).instance();
            return assertStatements(sql, 1, () -> repository.createJobExecution(JobExecutionRequest.of(instance.id())));
        });
        JobExecution started = tx(() -> assertStatements(sql, 1, () -> repository.transitionJobExecution(created.id(),
                created.version(), LifecycleTransition.to(STARTED, now()))));
        StepExecution step = tx(() -> {
            StepExecution linked = assertStatements(sql, 1,
                    () -> repository.createStepExecution(started.id(), StepName.of("only")));
            return assertStatements(sql, 1, () -> repository.transitionStepExecution(linked.id(), linked.version(),
                    LifecycleTransition.to(STARTED, now())));
        });
        long beforeChunk = sql.statementsExecutedOnThisThread();
        StepExecution chunk = tx(() -> assertStatements(sql, 1, () -> repository.transitionStepExecution(step.id(),
                step.version(), LifecycleTransition.progress(now(), Checkpoint.of("100".getBytes(StandardCharsets.UTF_8)),
                        new StepCounters(100, 100, 0, 0, 0, 0, 1, 0)))));
        long chunkCost = sql.statementsExecutedOnThisThread() - beforeChunk;
        JobExecution completed = tx(() -> {
            assertStatements(sql, 1, () -> repository.transitionStepExecution(chunk.id(), chunk.version(),
                    LifecycleTransition.to(COMPLETED, now())));
            return assertStatements(sql, 1, () -> repository.transitionJobExecution(started.id(), started.version(),
                    LifecycleTransition.to(COMPLETED, now())));
        });

        assertEquals(COMPLETED, completed.status());
        assertEquals(7, sql.statementsExecutedOnThisThread() - before - chunkCost, "statements of a one-step launch");
    }

    @Test
    void aRestartIsOneStatementWithOrWithoutADefinition() {
        JobInstance instance = given.newInstance("restart-cost");
        given.attemptIn(instance.id(), FAILED);
        JobExecution restart = tx(
                () -> assertStatements(sql, 1, () -> repository.createJobExecution(JobExecutionRequest.of(instance.id()))));
        tx(() -> given.drive(restart, FAILED));
        DefinitionIdentity definition = new DefinitionIdentity(instance.jobName(), "v1", PlanFingerprint.of(new byte[32]));
        assertEquals(3, tx(() -> assertStatements(sql, 1,
                () -> repository.createJobExecution(JobExecutionRequest.of(instance.id()).definedBy(definition)))).attempt());
    }

    @Test
    void selectingAnExistingInstanceCostsTheInsertThatFoundItAndOneRead() {
        JobInstanceKey key = freshKey("existing");
        tx(() -> repository.selectOrCreateJobInstance(key));
        assertFalse(tx(() -> assertStatements(sql, 2, () -> repository.selectOrCreateJobInstance(key))).created());
    }

    @Test
    void everyFinderIsOneStatement() {
        JobExecution execution = given.jobExecutionIn(STARTED);
        StepExecution step = given.stepIn(execution.id(), "step", STARTED);
        JobInstance instance = tx(() -> repository.getJobInstance(execution.jobInstanceId())).orElseThrow();
        tx(() -> {
            assertStatements(sql, 1, () -> repository.findJobInstance(instance.key()));
            assertStatements(sql, 1, () -> repository.getJobInstance(instance.id()));
            assertStatements(sql, 1, () -> repository.getJobExecution(execution.id()));
            assertStatements(sql, 1, () -> repository.latestJobExecution(instance.id()));
            assertStatements(sql, 1, () -> repository.jobExecutions(instance.id()));
            assertStatements(sql, 1, () -> repository.getStepExecution(step.id()));
            assertStatements(sql, 1, () -> repository.stepExecutions(execution.id()));
            return assertStatements(sql, 1, () -> repository.recoveryDecision(execution.id()));
        });
    }
}
