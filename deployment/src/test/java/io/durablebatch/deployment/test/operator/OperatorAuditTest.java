package io.durablebatch.deployment.test.operator;

import static io.durablebatch.deployment.test.InvalidValues.assertInvalid;
import static io.durablebatch.deployment.test.RepositoryTestSupport.assertRefused;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.Race;
import io.durablebatch.deployment.test.RepositoryFixtures;
import io.durablebatch.deployment.test.StoredState;
import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.OperationId;
import io.durablebatch.execution.RequestDigest;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.control.OperatorAction;
import io.durablebatch.repository.control.OperatorRecord;
import io.durablebatch.repository.control.OperatorRecordDraft;
import io.durablebatch.repository.control.OperatorTarget;
import io.durablebatch.repository.control.OwnerToken;
import io.durablebatch.repository.spi.KernelRepository;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.QuarkusUnitTest;

/** SPEC 8: one audit row per (action, operation id); a retry is answered from it, a reuse is refused. */
class OperatorAuditTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp();

    @Inject
    KernelRepository repository;

    @Inject
    RepositoryFixtures given;

    @Inject
    StoredState state;

    @Test
    void appendsTheRequestInTheTransactionOfItsEffect() {
        JobExecution started = given.ownedBy(OwnerToken.of("node-a/boot-1"), ExecutionStatus.STARTED);
        OperatorRecordDraft draft = stopDraft(started, "stop-" + UUID.randomUUID(), "stop|" + started.id());

        OperatorRecord recorded = tx(() -> {
            repository.requestExecutionStop(started.id(), started.version(), draft.actor(), draft.recordedAt());
            return repository.appendOperatorRequest(draft);
        });

        assertEquals(new OperatorRecord(draft.action(), draft.operationId(), draft.actor(), draft.target(),
                draft.requestDigest(), draft.outcome(), draft.recordedAt()), recorded);
        assertEquals(recorded, tx(() -> repository.findOperatorRequest(OperatorAction.STOP, draft.actor(), draft.operationId()))
                .orElseThrow());
    }

    @Test
    void aRolledBackEffectLeavesNoRecord() {
        JobExecution started = given.ownedBy(OwnerToken.of("node-a/boot-1"), ExecutionStatus.STARTED);
        OperatorRecordDraft draft = stopDraft(started, "stop-" + UUID.randomUUID(), "stop|" + started.id());

        IllegalStateException rollback = new IllegalStateException("the unit of work fails after the call");
        assertSame(rollback, assertThrows(IllegalStateException.class, () -> QuarkusTransaction.requiringNew().run(() -> {
            repository.appendOperatorRequest(draft);
            throw rollback;
        })));

        assertTrue(tx(() -> repository.findOperatorRequest(OperatorAction.STOP, draft.actor(), draft.operationId())).isEmpty());
    }

    @Test
    void theSameRequestAgainIsAnsweredFromTheRecord() {
        JobExecution started = given.ownedBy(OwnerToken.of("node-a/boot-1"), ExecutionStatus.STARTED);
        OperatorRecordDraft draft = stopDraft(started, "stop-" + UUID.randomUUID(), "stop|" + started.id());
        OperatorRecord first = tx(() -> repository.appendOperatorRequest(draft));
        OperatorRecordDraft retry = new OperatorRecordDraft(draft.action(), draft.operationId(), draft.actor(),
                draft.target(), draft.requestDigest(), "RETRIED", now().plusSeconds(5));

        OperatorRecord answered = tx(() -> repository.appendOperatorRequest(retry));

        assertEquals(first, answered);
        assertEquals(1, rows(draft.operationId()).size());
    }

    @Test
    void theSameOperationIdForAnotherRequestIsRefusedAndChangesNothing() {
        JobExecution started = given.ownedBy(OwnerToken.of("node-a/boot-1"), ExecutionStatus.STARTED);
        OperatorRecordDraft draft = stopDraft(started, "stop-" + UUID.randomUUID(), "stop|" + started.id());
        tx(() -> repository.appendOperatorRequest(draft));
        List<Map<String, Object>> before = rows(draft.operationId());
        OperatorRecordDraft reused = stopDraft(started, draft.operationId().value(), "stop|another-request");

        RepositoryException refusal = assertRefused(RepositoryError.OPERATION_CONFLICT,
                () -> repository.appendOperatorRequest(reused));

        assertTrue(refusal.getMessage().contains(draft.operationId().value()), refusal::getMessage);
        assertEquals(before, rows(draft.operationId()));
    }

    @Test
    void theKeyIsTheActionAndTheOperationIdTogether() {
        JobExecution started = given.ownedBy(OwnerToken.of("node-a/boot-1"), ExecutionStatus.STARTED);
        OperatorRecordDraft stop = stopDraft(started, "op-" + UUID.randomUUID(), "stop|" + started.id());
        OperatorRecordDraft abandon = new OperatorRecordDraft(OperatorAction.ABANDON, stop.operationId(), stop.actor(),
                stop.target(), RequestDigest.sha256("abandon|" + started.id()), "ABANDONED", now());

        tx(() -> repository.appendOperatorRequest(stop));
        tx(() -> repository.appendOperatorRequest(abandon));

        assertEquals(2, rows(stop.operationId()).size());
        assertEquals(OperatorAction.ABANDON, tx(() -> repository.findOperatorRequest(OperatorAction.ABANDON,
                stop.actor(), stop.operationId())).orElseThrow().action());
    }

    @Test
    void concurrentAppendsOfOneRequestRecordItOnce() {
        JobExecution started = given.ownedBy(OwnerToken.of("node-a/boot-1"), ExecutionStatus.STARTED);
        OperatorRecordDraft draft = stopDraft(started, "stop-" + UUID.randomUUID(), "stop|" + started.id());

        List<Race.Outcome<OperatorRecord>> outcomes = Race.run(8,
                caller -> tx(() -> repository.appendOperatorRequest(draft)));

        assertEquals(Map.of("ok", 8L), Race.codes(outcomes));
        List<OperatorRecord> records = Race.results(outcomes);
        records.forEach(record -> assertEquals(records.get(0), record));
        assertEquals(1, rows(draft.operationId()).size());
    }

    @Test
    void anUnknownRequestIsNotFound() {
        assertTrue(tx(
                () -> repository.findOperatorRequest(OperatorAction.RESTART, ActorRef.of("anyone"), OperationId.of("never-used-"
                        + UUID.randomUUID())))
                .isEmpty());
    }

    @Test
    void draftsRejectBadInputNamingTheField() {
        JobExecution started = given.ownedBy(OwnerToken.of("node-a/boot-1"), ExecutionStatus.STARTED);
        OperatorTarget target = OperatorTarget.execution(started.jobInstanceId(), started.id());
        assertInvalid("outcome", () -> new OperatorRecordDraft(OperatorAction.STOP, OperationId.of("op"),
                ActorRef.of("alice"), target, RequestDigest.sha256("x"), " ", now()));
        assertInvalid("requestDigest", () -> RequestDigest.of(new byte[31]));
        assertInvalid("owner", () -> OwnerToken.of("node a"));
    }

    private static OperatorRecordDraft stopDraft(JobExecution execution, String operationId, String request) {
        return new OperatorRecordDraft(OperatorAction.STOP, OperationId.of(operationId), ActorRef.of("alice"),
                OperatorTarget.execution(execution.jobInstanceId(), execution.id()), RequestDigest.sha256(request),
                "STOP_REQUESTED", now());
    }

    private List<Map<String, Object>> rows(OperationId operationId) {
        return state.rows("SELECT * FROM {p}operator_request WHERE operation_id = ? ORDER BY id",
                operationId.value());
    }
}
