package io.durablebatch.deployment.test.operator;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertRefused;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryFixtures;
import io.durablebatch.deployment.test.StoredState;
import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.OperationId;
import io.durablebatch.execution.ReasonCode;
import io.durablebatch.repository.RecoveryRequest;
import io.durablebatch.repository.RecoveryResolution;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.control.ExecutionControl;
import io.durablebatch.repository.control.OwnerToken;
import io.durablebatch.repository.spi.KernelRepository;
import io.quarkus.test.QuarkusUnitTest;

/** SPEC 8: a stop request is durable, compare-and-swap, for active executions only, and changes no status. */
class ExecutionStopRequestTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp();

    private static final OwnerToken OWNER = OwnerToken.of("node-a/boot-1");
    private static final ActorRef OPERATOR = ActorRef.of("alice");

    @Inject
    KernelRepository repository;

    @Inject
    RepositoryFixtures given;

    @Inject
    StoredState state;

    @Test
    void recordsTheRequestWithoutChangingTheStatus() {
        JobExecution started = given.ownedBy(OWNER, ExecutionStatus.STARTED);

        JobExecution requested = tx(() -> repository.requestExecutionStop(started.id(), started.version(), OPERATOR,
                now()));

        assertEquals(ExecutionStatus.STARTED, requested.status());
        assertEquals(started.version().next(), requested.version());
        assertEquals(requested, tx(() -> repository.getJobExecution(started.id())).orElseThrow());
        Map<String, Object> stored = state.jobExecutionRow(started.id());
        assertEquals("alice", stored.get("stop_requested_by"));
        assertTrue(stored.get("stop_requested_at") != null);
    }

    @Test
    void theRequestIsDurableAndReachesTheOwner() {
        JobExecution started = given.ownedBy(OWNER, ExecutionStatus.STARTED);
        tx(() -> repository.requestExecutionStop(started.id(), started.version(), OPERATOR, now()));

        ExecutionControl control = tx(() -> repository.observeExecutionControl(started.id(), OWNER, now()));

        assertTrue(control.stopRequested());
    }

    @Test
    void aStartingExecutionCanBeAskedToStop() {
        JobExecution claimed = given.ownedBy(OWNER, ExecutionStatus.STARTING);

        JobExecution requested = tx(() -> repository.requestExecutionStop(claimed.id(), claimed.version(), OPERATOR,
                now()));

        assertEquals(ExecutionStatus.STARTING, requested.status());
    }

    @Test
    void aStaleVersionIsRefusedAndChangesNothing() {
        JobExecution started = given.ownedBy(OWNER, ExecutionStatus.STARTED);

        state.assertRefusedChangingNothing(started.jobInstanceId(), RepositoryError.VERSION_CONFLICT,
                () -> repository.requestExecutionStop(started.id(), ExecutionVersion.INITIAL, OPERATOR, now()));
    }

    @Test
    void aFinishedExecutionIsRefusedAndChangesNothing() {
        JobExecution completed = given.ownedBy(OWNER, ExecutionStatus.COMPLETED);

        state.assertRefusedChangingNothing(completed.jobInstanceId(), RepositoryError.EXECUTION_NOT_ACTIVE,
                () -> repository.requestExecutionStop(completed.id(), completed.version(), OPERATOR, now()));
    }

    @Test
    void anUnknownExecutionIsRefusedAndChangesNothing() {
        JobExecution unknown = given.ownedBy(OWNER, ExecutionStatus.UNKNOWN);

        state.assertRefusedChangingNothing(unknown.jobInstanceId(), RepositoryError.EXECUTION_NOT_ACTIVE,
                () -> repository.requestExecutionStop(unknown.id(), unknown.version(), OPERATOR, now()));
    }

    @Test
    void aSecondRequestIsRefusedAndTheFirstStands() {
        JobExecution started = given.ownedBy(OWNER, ExecutionStatus.STARTED);
        JobExecution requested = tx(() -> repository.requestExecutionStop(started.id(), started.version(), OPERATOR,
                now()));
        state.assertRefusedChangingNothing(started.jobInstanceId(), RepositoryError.STOP_ALREADY_REQUESTED,
                () -> repository.requestExecutionStop(started.id(), requested.version(), ActorRef.of("bob"), now()));
    }

    @Test
    void aRecoveredExecutionCannotBeAskedToStop() {
        JobExecution started = given.ownedBy(OWNER, ExecutionStatus.STARTED);
        JobExecution recovered = tx(() -> repository.recoverJobExecution(started.id(), new RecoveryRequest(
                OperationId.of("recover-" + started.id()), OPERATOR, ReasonCode.of("OWNER_LOST"),
                RecoveryResolution.FAILED, started.version(), now(), true))).execution();
        state.assertRefusedChangingNothing(started.jobInstanceId(), RepositoryError.EXECUTION_NOT_ACTIVE,
                () -> repository.requestExecutionStop(started.id(), recovered.version(), OPERATOR, now()));
    }

    @Test
    void aMissingExecutionIsRefused() {
        assertRefused(RepositoryError.JOB_EXECUTION_NOT_FOUND,
                () -> repository.requestExecutionStop(JobExecutionId.of(Long.MAX_VALUE), ExecutionVersion.INITIAL,
                        OPERATOR, now()));
    }

    @Test
    void refusedOutsideATransaction() {
        JobExecution started = given.ownedBy(OWNER, ExecutionStatus.STARTED);
        RepositoryException refusal = assertThrows(RepositoryException.class,
                () -> repository.requestExecutionStop(started.id(), started.version(), OPERATOR, now()));

        assertEquals(RepositoryError.TRANSACTION_REQUIRED, refusal.error());
    }
}
