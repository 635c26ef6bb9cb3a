package io.durablebatch.deployment.test.recovery;

import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.execution.ExecutionStatus.COMPLETED;
import static io.durablebatch.execution.ExecutionStatus.FAILED;
import static io.durablebatch.execution.ExecutionStatus.STARTED;
import static io.durablebatch.execution.ExecutionStatus.STARTING;
import static io.durablebatch.execution.ExecutionStatus.UNKNOWN;
import static io.durablebatch.repository.RecoveryResolution.ABANDONED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.durablebatch.deployment.test.RepositoryFixtures;
import io.durablebatch.deployment.test.StoredState;
import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.OperationId;
import io.durablebatch.execution.ReasonCode;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.RecoveryDecision;
import io.durablebatch.repository.RecoveryRequest;
import io.durablebatch.repository.RecoveryResolution;
import io.durablebatch.repository.RecoveryResult;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.spi.KernelRepository;
import io.quarkus.test.QuarkusUnitTest;

/**
 * SPEC §5: recovery resolves an orphaned or UNKNOWN execution and its unresolved steps in one unit of
 * work with one append-only decision; a repeat is answered from the record; anything else is
 * refused with its own code and changes nothing.
 */
class RecoveryRulesTest {

    private static final ActorRef OPERATOR = ActorRef.of("operator alice");
    private static final ReasonCode OWNER_LOST = ReasonCode.of("OWNER_LOST");

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp();

    @Inject
    KernelRepository repository;

    @Inject
    RepositoryFixtures given;

    @Inject
    StoredState state;

    @Test
    void anOrphanedExecutionFailsTogetherWithItsUnresolvedSteps() {
        JobExecution orphan = given.jobExecutionIn(STARTED);
        StepExecution running = given.stepIn(orphan.id(), "running", STARTED);
        StepExecution queued = given.stepIn(orphan.id(), "queued", STARTING);
        StepExecution lost = given.stepIn(orphan.id(), "lost", UNKNOWN);
        StepExecution done = given.stepIn(orphan.id(), "done", COMPLETED);
        RecoveryRequest request = request(RecoveryResolution.FAILED, orphan.version());

        RecoveryResult result = tx(() -> repository.recoverJobExecution(orphan.id(), request));

        assertFalse(result.replayed());
        JobExecution failed = result.execution();
        assertEquals(FAILED, failed.status());
        assertEquals("FAILED", failed.exitStatus().code());
        assertTrue(failed.failure().isPresent(), "the recovery is recorded as the failure");
        assertEquals(Optional.of(request.requestedAt()), failed.endedAt());
        assertEquals(request.requestedAt(), failed.lastUpdated());
        assertEquals(orphan.version().next(), failed.version());
        assertEquals(failed, tx(() -> repository.getJobExecution(orphan.id())).orElseThrow());

        assertEquals(new RecoveryDecision(orphan.id(), orphan.jobInstanceId(), request.operationId(), OPERATOR,
                OWNER_LOST, RecoveryResolution.FAILED, STARTED, orphan.version(), failed.version(), 3,
                request.requestedAt()), result.decision());
        assertEquals(Optional.of(result.decision()), tx(() -> repository.recoveryDecision(orphan.id())));

        List<StepExecution> steps = tx(() -> repository.stepExecutions(orphan.id()));
        for (StepExecution before : List.of(running, queued, lost)) {
            StepExecution after = steps.stream().filter(s -> s.id().equals(before.id())).findFirst().orElseThrow();
            assertEquals(FAILED, after.status(), before.stepName()::value);
            assertEquals(ExitStatus.of("FAILED").code(), after.exitStatus().code());
            assertEquals(before.version().next(), after.version());
            assertEquals(Optional.of(request.requestedAt()), after.endedAt());
        }
        assertTrue(steps.contains(done), "a finished step is left as it was");
    }

    @ParameterizedTest
    @ValueSource(strings = { "STARTING", "STARTED", "STOPPING", "UNKNOWN" })
    void everyUnresolvedStatusIsRecoverable(String status) {
        JobExecution orphan = given.jobExecutionIn(ExecutionStatus.valueOf(status));
        RecoveryResult result = tx(() -> repository.recoverJobExecution(orphan.id(),
                request(RecoveryResolution.FAILED, orphan.version())));
        assertEquals(FAILED, result.execution().status());
        assertEquals(ExecutionStatus.valueOf(status), result.decision().observedStatus());
    }

    @Test
    void anUnknownExecutionIsAbandonedAndItsInstanceNeverRunsAgain() {
        JobExecution started = given.jobExecutionIn(STARTED);
        StepExecution step = given.stepIn(started.id(), "step", STARTED);
        JobExecution unknown = tx(() -> repository.transitionJobExecution(started.id(), started.version(),
                LifecycleTransition.to(UNKNOWN, now())));
        RecoveryResult result = tx(() -> repository.recoverJobExecution(unknown.id(),
                request(ABANDONED, unknown.version())));

        assertEquals(ExecutionStatus.ABANDONED, result.execution().status());
        assertEquals("ABANDONED", result.execution().exitStatus().code());
        assertEquals(UNKNOWN, result.decision().observedStatus());
        assertEquals(ABANDONED, result.decision().resolution());
        assertEquals(1, result.decision().resolvedSteps());
        assertEquals(ExecutionStatus.ABANDONED, tx(() -> repository.getStepExecution(step.id())).orElseThrow().status(),
                "steps are resolved the same way");
        state.assertRefusedChangingNothing(unknown.jobInstanceId(), RepositoryError.INSTANCE_ABANDONED,
                () -> repository.createJobExecution(JobExecutionRequest.of(unknown.jobInstanceId())));
    }

    @Test
    void aRecoveredFailedExecutionCanBeRestarted() {
        JobExecution orphan = given.jobExecutionIn(STARTED);
        tx(() -> repository.recoverJobExecution(orphan.id(), request(RecoveryResolution.FAILED, orphan.version())));
        JobExecution restart = tx(() -> repository.createJobExecution(JobExecutionRequest.of(orphan.jobInstanceId())));
        assertEquals(2, restart.attempt());
        assertEquals(STARTING, restart.status());
    }

    @Test
    void repeatingTheSameRequestReturnsTheRecordedResultAndChangesNothing() {
        JobExecution orphan = given.jobExecutionIn(STARTED);
        given.stepIn(orphan.id(), "step", STARTED);
        RecoveryRequest request = request(RecoveryResolution.FAILED, orphan.version());
        RecoveryResult first = tx(() -> repository.recoverJobExecution(orphan.id(), request));
        List<String> recovered = state.of(orphan.jobInstanceId());

        RecoveryRequest repeated = new RecoveryRequest(request.operationId(), request.actor(), request.reason(),
                request.resolution(), request.observedVersion(), request.requestedAt().plusSeconds(30));
        for (RecoveryRequest again : List.of(request, repeated)) {
            RecoveryResult replay = tx(() -> repository.recoverJobExecution(orphan.id(), again));
            assertTrue(replay.replayed());
            assertEquals(first.decision(), replay.decision());
            assertEquals(first.execution(), replay.execution(), "the version did not move");
        }
        assertEquals(recovered, state.of(orphan.jobInstanceId()));
    }

    @Test
    void aDifferentRequestForARecoveredExecutionIsRefused() {
        JobExecution orphan = given.jobExecutionIn(STARTED);
        tx(() -> repository.recoverJobExecution(orphan.id(), request(RecoveryResolution.FAILED, orphan.version())));
        state.assertRefusedChangingNothing(orphan.jobInstanceId(), RepositoryError.ALREADY_RECOVERED,
                () -> repository.recoverJobExecution(orphan.id(), request(ABANDONED, orphan.version())));
        state.assertRefusedChangingNothing(orphan.jobInstanceId(), RepositoryError.ALREADY_RECOVERED,
                () -> repository.recoverJobExecution(orphan.id(),
                        request(RecoveryResolution.FAILED, orphan.version())));
    }

    @Test
    void anOperationIdUsedForAnotherExecutionIsRefused() {
        JobExecution first = given.jobExecutionIn(STARTED);
        RecoveryRequest request = request(RecoveryResolution.FAILED, first.version());
        tx(() -> repository.recoverJobExecution(first.id(), request));

        JobExecution second = given.jobExecutionIn(STARTED);
        state.assertRefusedChangingNothing(second.jobInstanceId(), RepositoryError.OPERATION_CONFLICT,
                () -> repository.recoverJobExecution(second.id(), request));
        assertEquals(Optional.empty(), tx(() -> repository.recoveryDecision(second.id())));
    }

    @Test
    void anOperationIdRepeatedWithADifferentRequestIsRefused() {
        JobExecution orphan = given.jobExecutionIn(STARTED);
        RecoveryRequest request = request(RecoveryResolution.FAILED, orphan.version());
        tx(() -> repository.recoverJobExecution(orphan.id(), request));
        RecoveryRequest otherReason = new RecoveryRequest(request.operationId(), request.actor(),
                ReasonCode.of("NODE_DECOMMISSIONED"), request.resolution(), request.observedVersion(), now());
        state.assertRefusedChangingNothing(orphan.jobInstanceId(), RepositoryError.OPERATION_CONFLICT,
                () -> repository.recoverJobExecution(orphan.id(), otherReason));
    }

    @Test
    void anOperationIdConflictTakesPrecedenceOverAnEarlierRecovery() {
        JobExecution first = given.jobExecutionIn(STARTED);
        tx(() -> repository.recoverJobExecution(first.id(), request(RecoveryResolution.FAILED, first.version())));
        JobExecution second = given.jobExecutionIn(STARTED);
        RecoveryRequest secondRequest = request(RecoveryResolution.FAILED, second.version());
        tx(() -> repository.recoverJobExecution(second.id(), secondRequest));

        // Both refusals apply to recovering `first` with the operation id of `second`'s recovery.
        state.assertRefusedChangingNothing(first.jobInstanceId(), RepositoryError.OPERATION_CONFLICT,
                () -> repository.recoverJobExecution(first.id(), secondRequest));
    }

    @Test
    void aStaleObservedVersionIsRefusedBecauseTheOwnerMayBeAlive() {
        JobExecution started = given.jobExecutionIn(STARTED);
        ExecutionVersion stale = ExecutionVersion.of(started.version().value() - 1);
        state.assertRefusedChangingNothing(started.jobInstanceId(), RepositoryError.VERSION_CONFLICT,
                () -> repository.recoverJobExecution(started.id(), request(RecoveryResolution.FAILED, stale)));
        assertEquals(Optional.empty(), tx(() -> repository.recoveryDecision(started.id())));
    }

    @ParameterizedTest
    @ValueSource(strings = { "COMPLETED", "FAILED", "STOPPED", "ABANDONED" })
    void aFinishedExecutionIsNotRecoverable(String status) {
        JobExecution finished = given.jobExecutionIn(ExecutionStatus.valueOf(status));
        state.assertRefusedChangingNothing(finished.jobInstanceId(), RepositoryError.EXECUTION_NOT_RECOVERABLE,
                () -> repository.recoverJobExecution(finished.id(),
                        request(RecoveryResolution.FAILED, finished.version())));
    }

    @Test
    void anUnknownExecutionIdIsRefused() {
        JobExecution unrelated = given.jobExecutionIn(STARTED);
        state.assertRefusedChangingNothing(unrelated.jobInstanceId(), RepositoryError.JOB_EXECUTION_NOT_FOUND,
                () -> repository.recoverJobExecution(JobExecutionId.of(Long.MAX_VALUE),
                        request(RecoveryResolution.FAILED, ExecutionVersion.INITIAL)));
    }

    @Test
    void anExecutionNeverRecoveredHasNoDecision() {
        JobExecution running = given.jobExecutionIn(STARTED);
        assertEquals(Optional.empty(), tx(() -> repository.recoveryDecision(running.id())));
        assertEquals(Optional.empty(), tx(() -> repository.recoveryDecision(JobExecutionId.of(Long.MAX_VALUE))));
    }

    private static RecoveryRequest request(RecoveryResolution resolution, ExecutionVersion observed) {
        Instant at = now();
        return new RecoveryRequest(OperationId.of("recover-" + UUID.randomUUID()), OPERATOR, OWNER_LOST, resolution,
                observed, at);
    }
}
