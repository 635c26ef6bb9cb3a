package io.durablebatch.deployment.test.lifecycle;

import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.execution.ExecutionStatus.ABANDONED;
import static io.durablebatch.execution.ExecutionStatus.COMPLETED;
import static io.durablebatch.execution.ExecutionStatus.FAILED;
import static io.durablebatch.execution.ExecutionStatus.STARTED;
import static io.durablebatch.execution.ExecutionStatus.STARTING;
import static io.durablebatch.execution.ExecutionStatus.STOPPED;
import static io.durablebatch.execution.ExecutionStatus.STOPPING;
import static io.durablebatch.execution.ExecutionStatus.UNKNOWN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryFixtures;
import io.durablebatch.deployment.test.StoredState;
import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.ExecutionFailure;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.spi.KernelRepository;
import io.quarkus.test.QuarkusUnitTest;

/**
 * What a transition records besides the status: start and end times, the default and explicit exit
 * status, the failure, and for steps the checkpoint and counters (which a job transition refuses).
 */
class TransitionRecordingTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp();

    @Inject
    KernelRepository repository;

    @Inject
    RepositoryFixtures given;

    @Inject
    StoredState state;

    @Test
    void startedAtIsSetOnStartAndEndedAtWhenTheExecutionEnds() {
        JobExecution created = given.jobExecutionIn(STARTING);
        assertEquals(Optional.empty(), created.startedAt());
        assertEquals(Optional.empty(), created.endedAt());
        assertEquals(ExitStatus.EXECUTING, created.exitStatus());

        Instant startAt = now();
        JobExecution started = move(created, LifecycleTransition.to(STARTED, startAt));
        assertEquals(Optional.of(startAt), started.startedAt());
        assertEquals(Optional.empty(), started.endedAt());
        assertEquals(ExitStatus.EXECUTING, started.exitStatus(), "an active execution keeps its exit status");

        JobExecution stopping = move(started, LifecycleTransition.to(STOPPING, startAt.plusSeconds(1)));
        assertEquals(Optional.of(startAt), stopping.startedAt());
        assertEquals(Optional.empty(), stopping.endedAt());

        Instant stopAt = startAt.plusSeconds(2);
        JobExecution stopped = move(stopping, LifecycleTransition.to(STOPPED, stopAt));
        assertEquals(Optional.of(startAt), stopped.startedAt());
        assertEquals(Optional.of(stopAt), stopped.endedAt());

        Instant abandonAt = startAt.plusSeconds(3);
        JobExecution abandoned = move(stopped, LifecycleTransition.to(ABANDONED, abandonAt));
        assertEquals(Optional.of(stopAt), abandoned.endedAt(), "abandoning keeps the time the attempt ended");
        assertEquals(abandonAt, abandoned.lastUpdated());
    }

    @Test
    void anAttemptThatFailsBeforeStartingEndsWithoutAStartTime() {
        Instant failAt = now();
        JobExecution failed = move(given.jobExecutionIn(STARTING), LifecycleTransition.to(FAILED, failAt));
        assertEquals(Optional.empty(), failed.startedAt());
        assertEquals(Optional.of(failAt), failed.endedAt());
    }

    @Test
    void anUnknownExecutionHasNotEnded() {
        JobExecution unknown = given.jobExecutionIn(UNKNOWN);
        assertTrue(unknown.startedAt().isPresent());
        assertEquals(Optional.empty(), unknown.endedAt());
    }

    @Test
    void withoutAnExplicitExitStatusTheExitCodeIsTheStatusName() {
        for (ExecutionStatus status : EnumSet.of(STOPPED, FAILED, COMPLETED, ABANDONED, UNKNOWN)) {
            assertEquals(new ExitStatus(status.name()), given.jobExecutionIn(status).exitStatus(), status::name);
            assertEquals(new ExitStatus(status.name()), given.stepExecutionIn(status).exitStatus(), status::name);
        }
    }

    @Test
    void explicitExitStatusAndFailureAreRecorded() {
        ExitStatus exitStatus = new ExitStatus("FAILED_ON_INPUT", "line 42 is malformed");
        ExecutionFailure failure = ExecutionFailure.of(new IllegalStateException("boom"));
        JobExecution failed = move(given.jobExecutionIn(STARTED),
                LifecycleTransition.to(FAILED, now()).withExitStatus(exitStatus).withFailure(failure));
        assertEquals(exitStatus, failed.exitStatus());
        assertEquals(Optional.of(failure), failed.failure());
        assertEquals(failed, tx(() -> repository.getJobExecution(failed.id())).orElseThrow());

        JobExecution abandoned = move(failed, LifecycleTransition.to(ABANDONED, now()));
        assertEquals(Optional.of(failure), abandoned.failure(), "a later transition keeps the recorded failure");
        assertEquals(new ExitStatus("ABANDONED"), abandoned.exitStatus());

        StepExecution step = given.stepExecutionIn(STARTED);
        StepExecution failedStep = tx(() -> repository.transitionStepExecution(step.id(), step.version(),
                LifecycleTransition.to(FAILED, now()).withExitStatus(exitStatus).withFailure(failure)));
        assertEquals(exitStatus, failedStep.exitStatus());
        assertEquals(Optional.of(failure), failedStep.failure());
        assertEquals(failedStep, tx(() -> repository.getStepExecution(step.id())).orElseThrow());
    }

    @Test
    void anExplicitExitStatusMayBeRecordedWhileActive() {
        ExitStatus exitStatus = ExitStatus.of("WARMING_UP");
        JobExecution started = move(given.jobExecutionIn(STARTING),
                LifecycleTransition.to(STARTED, now()).withExitStatus(exitStatus));
        assertEquals(exitStatus, started.exitStatus());
    }

    @Test
    void aStepRecordsProgressWhileStartedAndKeepsItToTheEnd() {
        StepExecution step = given.stepExecutionIn(STARTED);
        assertEquals(Optional.empty(), step.checkpoint());
        assertEquals(StepCounters.ZERO, step.counters());

        Checkpoint first = checkpoint("offset=100");
        StepCounters firstCounters = new StepCounters(100, 98, 2, 0, 0, 0, 1, 0);
        StepExecution progressed = moveStep(step, LifecycleTransition.progress(now(), first, firstCounters));
        assertEquals(STARTED, progressed.status());
        assertEquals(Optional.of(first), progressed.checkpoint());
        assertEquals(firstCounters, progressed.counters());
        assertEquals(step.startedAt(), progressed.startedAt());

        Checkpoint second = checkpoint("offset=200");
        StepCounters secondCounters = new StepCounters(200, 196, 4, 1, 0, 0, 2, 1);
        StepExecution again = moveStep(progressed, LifecycleTransition.progress(now(), second, secondCounters));
        assertEquals(Optional.of(second), again.checkpoint(), "a new checkpoint replaces the previous one");
        assertEquals(secondCounters, again.counters(), "counters are absolute values");

        StepExecution completed = moveStep(again, LifecycleTransition.to(COMPLETED, now()));
        assertEquals(Optional.of(second), completed.checkpoint(), "ending without a checkpoint keeps the last one");
        assertEquals(secondCounters, completed.counters());
        assertEquals(completed, tx(() -> repository.getStepExecution(step.id())).orElseThrow());
    }

    @Test
    void aStepMayRecordItsFinalCheckpointAndCountersWhenItEnds() {
        StepExecution step = given.stepExecutionIn(STARTED);
        Checkpoint last = checkpoint("end");
        StepCounters counters = new StepCounters(7, 7, 0, 0, 0, 0, 1, 0);
        StepExecution completed = moveStep(step,
                LifecycleTransition.to(COMPLETED, now()).withCheckpoint(last).withCounters(counters));
        assertEquals(Optional.of(last), completed.checkpoint());
        assertEquals(counters, completed.counters());
    }

    @Test
    void aJobTransitionCarryingStepProgressIsRefused() {
        JobExecution execution = given.jobExecutionIn(STARTED);
        List<String> before = state.of(execution.jobInstanceId());
        for (LifecycleTransition transition : List.of(
                LifecycleTransition.to(COMPLETED, now()).withCheckpoint(checkpoint("x")),
                LifecycleTransition.to(COMPLETED, now()).withCounters(StepCounters.ZERO))) {
            IllegalArgumentException refusal = assertThrows(IllegalArgumentException.class,
                    () -> tx(() -> repository.transitionJobExecution(execution.id(), execution.version(), transition)));
            assertTrue(refusal.getMessage().startsWith("transition.checkpoint"), refusal::getMessage);
        }
        assertEquals(before, state.of(execution.jobInstanceId()));
    }

    private JobExecution move(JobExecution execution, LifecycleTransition transition) {
        return tx(() -> repository.transitionJobExecution(execution.id(), execution.version(), transition));
    }

    private StepExecution moveStep(StepExecution step, LifecycleTransition transition) {
        return tx(() -> repository.transitionStepExecution(step.id(), step.version(), transition));
    }

    private static Checkpoint checkpoint(String position) {
        return Checkpoint.of(position.getBytes(StandardCharsets.UTF_8));
    }
}
