package io.durablebatch.deployment.test.operator;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertRefused;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.deployment.test.operator.OperatorFixtures.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.deployment.test.RepositoryTestApp;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.deployment.test.Rows;
import io.durablebatch.operator.ExecutionControl;
import io.durablebatch.operator.OwnerToken;
import io.durablebatch.repository.ActorRef;
import io.durablebatch.repository.ExecutionStatus;
import io.durablebatch.repository.ExecutionVersion;
import io.durablebatch.repository.JobExecution;
import io.durablebatch.repository.JobExecutionId;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.OperationId;
import io.durablebatch.repository.ReasonCode;
import io.durablebatch.repository.RecoveryRequest;
import io.durablebatch.repository.RecoveryResolution;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.quarkus.test.QuarkusUnitTest;

/** SPEC 8: a stop request is durable, compare-and-swap, for active executions only, and changes no status. */
class ExecutionStopRequestTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RepositoryTestApp.with(RepositoryTestSupport.class, Rows.class,
            OperatorFixtures.class);

    private static final OwnerToken OWNER = OwnerToken.of("node-a/boot-1");
    private static final ActorRef OPERATOR = ActorRef.of("alice");

    @Inject
    JobRepository repository;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void recordsTheRequestWithoutChangingTheStatus() {
        JobExecution started = OperatorFixtures.started(repository, OWNER);

        JobExecution requested = tx(() -> repository.requestExecutionStop(started.id(), started.version(), OPERATOR,
                now()));

        assertEquals(ExecutionStatus.STARTED, requested.status());
        assertEquals(started.version().next(), requested.version());
        assertEquals(requested, tx(() -> repository.getJobExecution(started.id())).orElseThrow());
        Map<String, Object> stored = row(dataSource, started.id()).get(0);
        assertEquals("alice", stored.get("stop_requested_by"));
        assertTrue(stored.get("stop_requested_at") != null);
    }

    @Test
    void theRequestIsDurableAndReachesTheOwner() {
        JobExecution started = OperatorFixtures.started(repository, OWNER);
        tx(() -> repository.requestExecutionStop(started.id(), started.version(), OPERATOR, now()));

        ExecutionControl control = tx(() -> repository.observeExecutionControl(started.id(), OWNER, now()));

        assertTrue(control.stopRequested());
    }

    @Test
    void aStartingExecutionCanBeAskedToStop() {
        JobExecution claimed = OperatorFixtures.claimed(repository, OWNER);

        JobExecution requested = tx(() -> repository.requestExecutionStop(claimed.id(), claimed.version(), OPERATOR,
                now()));

        assertEquals(ExecutionStatus.STARTING, requested.status());
    }

    @Test
    void aStaleVersionIsRefusedAndChangesNothing() {
        JobExecution started = OperatorFixtures.started(repository, OWNER);
        List<Map<String, Object>> before = row(dataSource, started.id());

        assertRefused(RepositoryError.VERSION_CONFLICT,
                () -> repository.requestExecutionStop(started.id(), ExecutionVersion.INITIAL, OPERATOR, now()));

        assertEquals(before, row(dataSource, started.id()));
    }

    @Test
    void aFinishedExecutionIsRefusedAndChangesNothing() {
        JobExecution completed = OperatorFixtures.startedThen(repository, OWNER, ExecutionStatus.COMPLETED);
        List<Map<String, Object>> before = row(dataSource, completed.id());

        assertRefused(RepositoryError.EXECUTION_NOT_ACTIVE,
                () -> repository.requestExecutionStop(completed.id(), completed.version(), OPERATOR, now()));

        assertEquals(before, row(dataSource, completed.id()));
    }

    @Test
    void anUnknownExecutionIsRefusedAndChangesNothing() {
        JobExecution unknown = OperatorFixtures.startedThen(repository, OWNER, ExecutionStatus.UNKNOWN);
        List<Map<String, Object>> before = row(dataSource, unknown.id());

        assertRefused(RepositoryError.EXECUTION_NOT_ACTIVE,
                () -> repository.requestExecutionStop(unknown.id(), unknown.version(), OPERATOR, now()));

        assertEquals(before, row(dataSource, unknown.id()));
    }

    @Test
    void aSecondRequestIsRefusedAndTheFirstStands() {
        JobExecution started = OperatorFixtures.started(repository, OWNER);
        JobExecution requested = tx(() -> repository.requestExecutionStop(started.id(), started.version(), OPERATOR,
                now()));
        List<Map<String, Object>> before = row(dataSource, started.id());

        assertRefused(RepositoryError.STOP_ALREADY_REQUESTED,
                () -> repository.requestExecutionStop(started.id(), requested.version(), ActorRef.of("bob"), now()));

        assertEquals(before, row(dataSource, started.id()));
    }

    @Test
    void aRecoveredExecutionCannotBeAskedToStop() {
        JobExecution started = OperatorFixtures.started(repository, OWNER);
        JobExecution recovered = tx(() -> repository.recoverJobExecution(started.id(), new RecoveryRequest(
                OperationId.of("recover-" + started.id()), OPERATOR, ReasonCode.of("OWNER_LOST"),
                RecoveryResolution.FAILED, started.version(), now()))).execution();
        List<Map<String, Object>> before = row(dataSource, started.id());

        assertRefused(RepositoryError.EXECUTION_NOT_ACTIVE,
                () -> repository.requestExecutionStop(started.id(), recovered.version(), OPERATOR, now()));

        assertEquals(before, row(dataSource, started.id()));
    }

    @Test
    void aMissingExecutionIsRefused() {
        assertRefused(RepositoryError.JOB_EXECUTION_NOT_FOUND,
                () -> repository.requestExecutionStop(JobExecutionId.of(Long.MAX_VALUE), ExecutionVersion.INITIAL,
                        OPERATOR, now()));
    }

    @Test
    void refusedOutsideATransaction() {
        JobExecution started = OperatorFixtures.started(repository, OWNER);
        RepositoryException refusal = assertThrows(RepositoryException.class,
                () -> repository.requestExecutionStop(started.id(), started.version(), OPERATOR, now()));

        assertEquals(RepositoryError.TRANSACTION_REQUIRED, refusal.error());
    }
}
