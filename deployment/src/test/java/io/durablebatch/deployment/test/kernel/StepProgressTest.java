package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertRefused;
import static io.durablebatch.deployment.test.RepositoryTestSupport.freshKey;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepName;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.StepProgress;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.test.QuarkusUnitTest;

/** recordStepProgress: the chunk commit's one statement, its compare-and-swap and the stop it reports. */
class StepProgressTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(RepositoryTestSupport.class));

    @Inject
    KernelRepository repository;

    @Inject
    MetadataSql sql;

    record Running(JobExecution job, StepExecution step) {
    }

    Running running() {
        return tx(() -> {
            JobExecution created = repository.createJobExecution(
                    JobExecutionRequest.of(repository.selectOrCreateJobInstance(freshKey("progress")).instance().id()));
            JobExecution job = repository.transitionJobExecution(created.id(), created.version(),
                    LifecycleTransition.to(ExecutionStatus.STARTED, now()));
            StepExecution step = repository.createStepExecution(job.id(), StepName.of("load"));
            return new Running(job, repository.transitionStepExecution(step.id(), step.version(),
                    LifecycleTransition.to(ExecutionStatus.STARTED, now())));
        });
    }

    @Test
    void recordsProgressInOneStatementExactlyAsAProgressTransition() {
        Running running = running();
        Checkpoint checkpoint = Checkpoint.of(new byte[] { 1, 2, 3 });
        StepCounters counters = new StepCounters(100, 99, 1, 0, 0, 0, 1, 0);
        long before = sql.statementsExecutedOnThisThread();
        StepProgress progress = tx(() -> repository.recordStepProgress(running.step().id(), running.step().version(),
                Optional.of(checkpoint), counters, now()));
        assertEquals(1, sql.statementsExecutedOnThisThread() - before, "one statement");
        assertFalse(progress.stopRequested());
        assertEquals(running.step().version().next(), progress.version());
        StepExecution stored = tx(() -> repository.getStepExecution(running.step().id())).orElseThrow();
        assertEquals(stored, progress.applyTo(running.step(), Optional.of(checkpoint), counters),
                "the caller's view equals the stored row");
        assertEquals(ExecutionStatus.STARTED, stored.status());
        // without a checkpoint the stored one stays
        StepProgress next = tx(() -> repository.recordStepProgress(stored.id(), stored.version(), Optional.empty(),
                counters, now()));
        assertEquals(Optional.of(checkpoint), tx(() -> repository.getStepExecution(stored.id())).orElseThrow().checkpoint());
        assertEquals(stored.version().next(), next.version());
    }

    @Test
    void reportsAStopRequestedForTheJobExecution() {
        Running running = running();
        tx(() -> repository.requestExecutionStop(running.job().id(), running.job().version(), ActorRef.of("bob"), now()));
        StepProgress progress = tx(() -> repository.recordStepProgress(running.step().id(), running.step().version(),
                Optional.empty(), StepCounters.ZERO, now()));
        assertTrue(progress.stopRequested());
        assertEquals(ExecutionStatus.STARTED, tx(() -> repository.getJobExecution(running.job().id())).orElseThrow()
                .status(), "reporting a stop request does not move the job: its owner observes control for that");
    }

    @Test
    void aStaleVersionOrAStepThatIsNotStartedIsRefusedAndNothingChanges() {
        Running running = running();
        StepExecution moved = tx(() -> repository.transitionStepExecution(running.step().id(), running.step().version(),
                LifecycleTransition.progress(now(), Checkpoint.of(new byte[] { 9 }), StepCounters.ZERO)));
        assertRefused(RepositoryError.VERSION_CONFLICT, () -> repository.recordStepProgress(moved.id(),
                running.step().version(), Optional.of(Checkpoint.of(new byte[] { 7 })), StepCounters.ZERO, now()));
        StepExecution completed = tx(() -> repository.transitionStepExecution(moved.id(), moved.version(),
                LifecycleTransition.to(ExecutionStatus.COMPLETED, now())));
        assertRefused(RepositoryError.ILLEGAL_TRANSITION, () -> repository.recordStepProgress(completed.id(),
                completed.version(), Optional.of(Checkpoint.of(new byte[] { 7 })), StepCounters.ZERO, now()));
        assertEquals(completed, tx(() -> repository.getStepExecution(completed.id())).orElseThrow());
        assertRefused(RepositoryError.STEP_EXECUTION_NOT_FOUND, () -> repository.recordStepProgress(
                io.durablebatch.execution.StepExecutionId.of(Long.MAX_VALUE), ExecutionVersion.INITIAL, Optional.empty(),
                StepCounters.ZERO, now()));
    }
}
