package io.durablebatch.deployment.test.operator;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertRefused;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.deployment.test.RepositoryTestApp;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.deployment.test.Rows;
import io.durablebatch.operator.OperatorAction;
import io.durablebatch.operator.OperatorRecord;
import io.durablebatch.operator.OperatorRecordDraft;
import io.durablebatch.operator.OperatorTarget;
import io.durablebatch.operator.OwnerToken;
import io.durablebatch.repository.ActorRef;
import io.durablebatch.repository.JobExecution;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.OperationId;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.RequestDigest;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.QuarkusUnitTest;

/** SPEC 8: one audit row per (action, operation id); a retry is answered from it, a reuse is refused. */
class OperatorAuditTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RepositoryTestApp.with(RepositoryTestSupport.class, Rows.class,
            OperatorFixtures.class);

    @Inject
    JobRepository repository;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void appendsTheRequestInTheTransactionOfItsEffect() {
        JobExecution started = OperatorFixtures.started(repository, OwnerToken.of("node-a/boot-1"));
        OperatorRecordDraft draft = stopDraft(started, "stop-" + UUID.randomUUID(), "stop|" + started.id());

        OperatorRecord recorded = tx(() -> {
            repository.requestExecutionStop(started.id(), started.version(), draft.actor(), draft.recordedAt());
            return repository.appendOperatorRequest(draft);
        });

        assertEquals(new OperatorRecord(draft.action(), draft.operationId(), draft.actor(), draft.target(),
                draft.requestDigest(), draft.outcome(), draft.recordedAt()), recorded);
        assertEquals(recorded, tx(() -> repository.findOperatorRequest(OperatorAction.STOP, draft.operationId()))
                .orElseThrow());
    }

    @Test
    void aRolledBackEffectLeavesNoRecord() {
        JobExecution started = OperatorFixtures.started(repository, OwnerToken.of("node-a/boot-1"));
        OperatorRecordDraft draft = stopDraft(started, "stop-" + UUID.randomUUID(), "stop|" + started.id());

        IllegalStateException rollback = new IllegalStateException("the unit of work fails after the call");
        assertSame(rollback, assertThrows(IllegalStateException.class, () -> QuarkusTransaction.requiringNew().run(() -> {
            repository.appendOperatorRequest(draft);
            throw rollback;
        })));

        assertTrue(tx(() -> repository.findOperatorRequest(OperatorAction.STOP, draft.operationId())).isEmpty());
    }

    @Test
    void theSameRequestAgainIsAnsweredFromTheRecord() {
        JobExecution started = OperatorFixtures.started(repository, OwnerToken.of("node-a/boot-1"));
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
        JobExecution started = OperatorFixtures.started(repository, OwnerToken.of("node-a/boot-1"));
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
        JobExecution started = OperatorFixtures.started(repository, OwnerToken.of("node-a/boot-1"));
        OperatorRecordDraft stop = stopDraft(started, "op-" + UUID.randomUUID(), "stop|" + started.id());
        OperatorRecordDraft abandon = new OperatorRecordDraft(OperatorAction.ABANDON, stop.operationId(), stop.actor(),
                stop.target(), RequestDigest.sha256("abandon|" + started.id()), "ABANDONED", now());

        tx(() -> repository.appendOperatorRequest(stop));
        tx(() -> repository.appendOperatorRequest(abandon));

        assertEquals(2, rows(stop.operationId()).size());
        assertEquals(OperatorAction.ABANDON, tx(() -> repository.findOperatorRequest(OperatorAction.ABANDON,
                stop.operationId())).orElseThrow().action());
    }

    @Test
    void concurrentAppendsOfOneRequestRecordItOnce() throws Exception {
        JobExecution started = OperatorFixtures.started(repository, OwnerToken.of("node-a/boot-1"));
        OperatorRecordDraft draft = stopDraft(started, "stop-" + UUID.randomUUID(), "stop|" + started.id());
        int callers = 8;
        CountDownLatch ready = new CountDownLatch(callers);
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        try {
            List<Future<OperatorRecord>> outcomes = new ArrayList<>();
            for (int i = 0; i < callers; i++) {
                outcomes.add(pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    return tx(() -> repository.appendOperatorRequest(draft));
                }));
            }
            ready.await();
            go.countDown();
            OperatorRecord first = outcomes.get(0).get();
            for (Future<OperatorRecord> outcome : outcomes) {
                assertEquals(first, outcome.get());
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(1, rows(draft.operationId()).size());
    }

    @Test
    void anUnknownRequestIsNotFound() {
        assertTrue(tx(() -> repository.findOperatorRequest(OperatorAction.RESTART, OperationId.of("never-used-"
                + UUID.randomUUID()))).isEmpty());
    }

    @Test
    void draftsRejectBadInputNamingTheField() {
        JobExecution started = OperatorFixtures.started(repository, OwnerToken.of("node-a/boot-1"));
        OperatorTarget target = OperatorTarget.execution(started.jobInstanceId(), started.id());
        IllegalArgumentException blank = assertThrows(IllegalArgumentException.class,
                () -> new OperatorRecordDraft(OperatorAction.STOP, OperationId.of("op"), ActorRef.of("alice"), target,
                        RequestDigest.sha256("x"), " ", now()));
        assertTrue(blank.getMessage().startsWith("outcome"), blank::getMessage);
        IllegalArgumentException digest = assertThrows(IllegalArgumentException.class,
                () -> RequestDigest.of(new byte[31]));
        assertTrue(digest.getMessage().startsWith("requestDigest"), digest::getMessage);
        IllegalArgumentException owner = assertThrows(IllegalArgumentException.class, () -> OwnerToken.of("node a"));
        assertTrue(owner.getMessage().startsWith("owner"), owner::getMessage);
    }

    private static OperatorRecordDraft stopDraft(JobExecution execution, String operationId, String request) {
        return new OperatorRecordDraft(OperatorAction.STOP, OperationId.of(operationId), ActorRef.of("alice"),
                OperatorTarget.execution(execution.jobInstanceId(), execution.id()), RequestDigest.sha256(request),
                "STOP_REQUESTED", now());
    }

    private List<Map<String, Object>> rows(OperationId operationId) {
        return Rows.select(dataSource, "SELECT * FROM dbatch_operator_request WHERE operation_id = ? ORDER BY id",
                operationId.value());
    }
}
