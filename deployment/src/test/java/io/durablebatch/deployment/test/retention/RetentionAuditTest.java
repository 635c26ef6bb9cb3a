package io.durablebatch.deployment.test.retention;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertRefused;
import static io.durablebatch.deployment.test.RepositoryTestSupport.freshJobName;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryFixtures;
import io.durablebatch.deployment.test.StoredState;
import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobInstance;
import io.durablebatch.execution.OperationId;
import io.durablebatch.execution.ReasonCode;
import io.durablebatch.execution.RequestDigest;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.retention.RetentionAction;
import io.durablebatch.repository.retention.RetentionRecord;
import io.durablebatch.repository.retention.RetentionRecordDraft;
import io.durablebatch.repository.spi.KernelRepository;
import io.quarkus.test.QuarkusUnitTest;

/** SPEC 9: the retention audit is written in the transaction it audits and is idempotent per operation id. */
class RetentionAuditTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp();

    private static final ActorRef LEGAL = ActorRef.of("legal@example.org");

    @Inject
    KernelRepository repository;

    @Inject
    RepositoryFixtures given;

    @Inject
    StoredState state;

    @Test
    void recordsAHoldInTheTransactionThatPlacesIt() {
        JobInstance instance = finished();
        RetentionRecordDraft draft = holdDraft(instance, "hold-" + UUID.randomUUID(), "hold|" + instance.id());

        RetentionRecord recorded = tx(() -> {
            repository.placeInstanceHold(instance.id(), LEGAL, ReasonCode.of("LITIGATION"), draft.recordedAt());
            return repository.appendRetentionAction(draft);
        });

        assertEquals(new RetentionRecord(draft.action(), draft.operationId(), draft.actor(), draft.jobInstanceId(),
                draft.requestDigest(), draft.outcome(), draft.recordedAt()), recorded);
        assertEquals(recorded,
                tx(() -> repository.findRetentionAction(RetentionAction.PLACE_HOLD, draft.actor(), draft.operationId()))
                        .orElseThrow());
    }

    @Test
    void aPurgeRecordNamesNoInstance() {
        RetentionRecordDraft draft = new RetentionRecordDraft(RetentionAction.PURGE,
                OperationId.of("purge-" + UUID.randomUUID()), ActorRef.of("system:retention"), Optional.empty(),
                RequestDigest.sha256("purge|before=2026-01-01"), "PURGED 0", now());

        RetentionRecord recorded = tx(() -> repository.appendRetentionAction(draft));

        assertTrue(recorded.jobInstanceId().isEmpty());
    }

    @Test
    void theSameRequestAgainIsAnsweredFromTheRecord() {
        JobInstance instance = finished();
        RetentionRecordDraft draft = holdDraft(instance, "hold-" + UUID.randomUUID(), "hold|" + instance.id());
        RetentionRecord first = tx(() -> repository.appendRetentionAction(draft));

        RetentionRecord answered = tx(() -> repository.appendRetentionAction(new RetentionRecordDraft(draft.action(),
                draft.operationId(), draft.actor(), draft.jobInstanceId(), draft.requestDigest(), "RETRIED",
                now().plusSeconds(3))));

        assertEquals(first, answered);
        assertEquals(1, rows(draft.operationId()).size());
    }

    @Test
    void theSameOperationIdForAnotherRequestIsRefusedAndChangesNothing() {
        JobInstance instance = finished();
        RetentionRecordDraft draft = holdDraft(instance, "hold-" + UUID.randomUUID(), "hold|" + instance.id());
        tx(() -> repository.appendRetentionAction(draft));
        List<Map<String, Object>> before = rows(draft.operationId());

        assertRefused(RepositoryError.OPERATION_CONFLICT, () -> repository.appendRetentionAction(
                holdDraft(instance, draft.operationId().value(), "hold|something-else")));

        assertEquals(before, rows(draft.operationId()));
    }

    @Test
    void theKeyIsTheActionAndTheOperationIdTogether() {
        JobInstance instance = finished();
        RetentionRecordDraft place = holdDraft(instance, "op-" + UUID.randomUUID(), "hold|" + instance.id());
        RetentionRecordDraft release = new RetentionRecordDraft(RetentionAction.RELEASE_HOLD, place.operationId(),
                LEGAL, place.jobInstanceId(), RequestDigest.sha256("release|" + instance.id()), "RELEASED", now());

        tx(() -> repository.appendRetentionAction(place));
        tx(() -> repository.appendRetentionAction(release));

        assertEquals(2, rows(place.operationId()).size());
    }

    @Test
    void anUnknownActionIsNotFound() {
        assertTrue(tx(() -> repository.findRetentionAction(RetentionAction.PURGE, ActorRef.of("anyone"),
                OperationId.of("never-" + UUID.randomUUID()))).isEmpty());
    }

    @Test
    void aHoldActionNamesItsInstance() {
        IllegalArgumentException refusal = assertThrows(IllegalArgumentException.class,
                () -> new RetentionRecordDraft(RetentionAction.PLACE_HOLD, OperationId.of("op"), LEGAL, Optional.empty(),
                        RequestDigest.sha256("x"), "PLACED", now()));

        assertTrue(refusal.getMessage().startsWith("jobInstanceId"), refusal::getMessage);
    }

    private JobInstance finished() {
        return given.instanceWithHistory(freshJobName("audit"), 1, ExecutionStatus.COMPLETED);
    }

    private static RetentionRecordDraft holdDraft(JobInstance instance, String operationId, String request) {
        return new RetentionRecordDraft(RetentionAction.PLACE_HOLD, OperationId.of(operationId), LEGAL,
                Optional.of(instance.id()), RequestDigest.sha256(request), "PLACED", now());
    }

    private List<Map<String, Object>> rows(OperationId operationId) {
        return state.rows("SELECT * FROM {p}retention_action WHERE operation_id = ? ORDER BY id",
                operationId.value());
    }
}
