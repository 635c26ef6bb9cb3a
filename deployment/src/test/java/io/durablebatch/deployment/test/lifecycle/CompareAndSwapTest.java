package io.durablebatch.deployment.test.lifecycle;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertRefused;
import static io.durablebatch.deployment.test.RepositoryTestSupport.assertStatements;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.execution.ExecutionStatus.COMPLETED;
import static io.durablebatch.execution.ExecutionStatus.FAILED;
import static io.durablebatch.execution.ExecutionStatus.STARTED;
import static io.durablebatch.execution.ExecutionStatus.STOPPING;
import static io.durablebatch.repository.RepositoryError.JOB_EXECUTION_NOT_FOUND;
import static io.durablebatch.repository.RepositoryError.STEP_EXECUTION_NOT_FOUND;
import static io.durablebatch.repository.RepositoryError.VERSION_CONFLICT;
import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryFixtures;
import io.durablebatch.deployment.test.StoredState;
import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.test.QuarkusUnitTest;

/**
 * SPEC §3 compare-and-swap: a stale (or future) version and an unknown id are refused, each with its
 * own code, and change nothing; {@code enrich*ExitStatus} replaces the exit status only, by the
 * same compare-and-swap.
 */
class CompareAndSwapTest {

    private static final JobExecutionId NO_JOB_EXECUTION = JobExecutionId.of(Long.MAX_VALUE);
    private static final StepExecutionId NO_STEP_EXECUTION = StepExecutionId.of(Long.MAX_VALUE);

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp();

    @Inject
    KernelRepository repository;

    @Inject
    RepositoryFixtures given;

    @Inject
    StoredState state;

    @Inject
    MetadataSql sql;

    @Test
    void aJobTransitionAtAStaleOrFutureVersionIsRefused() {
        JobExecution started = given.jobExecutionIn(STARTED);
        ExecutionVersion stale = ExecutionVersion.of(started.version().value() - 1);
        for (ExecutionVersion wrong : new ExecutionVersion[] { stale, started.version().next() }) {
            state.assertRefusedChangingNothing(started.jobInstanceId(), VERSION_CONFLICT,
                    () -> repository.transitionJobExecution(started.id(), wrong, LifecycleTransition.to(COMPLETED, now())));
        }
        JobExecution completed = tx(() -> repository.transitionJobExecution(started.id(), started.version(),
                LifecycleTransition.to(COMPLETED, now())));
        assertEquals(started.version().next(), completed.version(), "the refusals did not move the version");
    }

    @Test
    void aStepTransitionAtAStaleVersionIsRefused() {
        StepExecution started = given.stepExecutionIn(STARTED);
        ExecutionVersion stale = ExecutionVersion.of(started.version().value() - 1);
        state.assertRefusedChangingNothing(started.jobInstanceId(), VERSION_CONFLICT,
                () -> repository.transitionStepExecution(started.id(), stale, LifecycleTransition.to(STOPPING, now())));
        assertEquals(started, tx(() -> repository.getStepExecution(started.id())).orElseThrow());
    }

    @Test
    void aVersionConflictIsReportedEvenWhenTheTransitionIsAlsoForbidden() {
        // The caller's view is stale, so the lifecycle check would judge a status it never saw.
        JobExecution completed = given.jobExecutionIn(COMPLETED);
        state.assertRefusedChangingNothing(completed.jobInstanceId(), VERSION_CONFLICT,
                () -> repository.transitionJobExecution(completed.id(), ExecutionVersion.INITIAL,
                        LifecycleTransition.to(FAILED, now())));
    }

    @Test
    void unknownExecutionsAreRefusedWithTheirOwnCodes() {
        assertRefused(JOB_EXECUTION_NOT_FOUND, () -> repository.transitionJobExecution(NO_JOB_EXECUTION,
                ExecutionVersion.INITIAL, LifecycleTransition.to(STARTED, now())));
        assertRefused(JOB_EXECUTION_NOT_FOUND,
                () -> repository.enrichJobExitStatus(NO_JOB_EXECUTION, ExecutionVersion.INITIAL, ExitStatus.of("X")));
        assertRefused(STEP_EXECUTION_NOT_FOUND, () -> repository.transitionStepExecution(NO_STEP_EXECUTION,
                ExecutionVersion.INITIAL, LifecycleTransition.to(STARTED, now())));
        assertRefused(STEP_EXECUTION_NOT_FOUND,
                () -> repository.enrichStepExitStatus(NO_STEP_EXECUTION, ExecutionVersion.INITIAL, ExitStatus.of("X")));
    }

    @Test
    void enrichJobExitStatusReplacesOnlyTheExitStatus() {
        JobExecution completed = given.jobExecutionIn(COMPLETED);
        ExitStatus enriched = new ExitStatus("COMPLETED_WITH_SKIPS", "3 items skipped");
        JobExecution result = tx(() -> assertStatements(sql, 1,
                () -> repository.enrichJobExitStatus(completed.id(), completed.version(), enriched)));
        assertEquals(new JobExecution(completed.id(), completed.jobInstanceId(), completed.jobName(), completed.attempt(),
                completed.status(),
                enriched, completed.failure(), completed.definition(), completed.parameters(), completed.createdAt(),
                completed.startedAt(),
                completed.endedAt(), result.lastUpdated(), completed.version().next()), result);
        assertEquals(result, tx(() -> repository.getJobExecution(completed.id())).orElseThrow());
    }

    @Test
    void enrichStepExitStatusReplacesOnlyTheExitStatus() {
        StepExecution completed = given.stepExecutionIn(COMPLETED);
        ExitStatus enriched = ExitStatus.of("NOOP");
        StepExecution result = tx(() -> assertStatements(sql, 1,
                () -> repository.enrichStepExitStatus(completed.id(), completed.version(), enriched)));
        assertEquals(new StepExecution(completed.id(), completed.jobExecutionId(), completed.jobInstanceId(),
                completed.stepName(), completed.status(), enriched, completed.failure(), completed.checkpoint(),
                completed.counters(), completed.createdAt(), completed.startedAt(), completed.endedAt(),
                result.lastUpdated(), completed.version().next()), result);
        assertEquals(result, tx(() -> repository.getStepExecution(completed.id())).orElseThrow());
    }

    @Test
    void enrichAtAStaleVersionIsRefused() {
        JobExecution job = given.jobExecutionIn(COMPLETED);
        ExecutionVersion staleJob = ExecutionVersion.of(job.version().value() - 1);
        state.assertRefusedChangingNothing(job.jobInstanceId(), VERSION_CONFLICT,
                () -> repository.enrichJobExitStatus(job.id(), staleJob, ExitStatus.of("LATE")));

        StepExecution step = given.stepExecutionIn(COMPLETED);
        ExecutionVersion staleStep = ExecutionVersion.of(step.version().value() - 1);
        state.assertRefusedChangingNothing(step.jobInstanceId(), VERSION_CONFLICT,
                () -> repository.enrichStepExitStatus(step.id(), staleStep, ExitStatus.of("LATE")));
    }
}
