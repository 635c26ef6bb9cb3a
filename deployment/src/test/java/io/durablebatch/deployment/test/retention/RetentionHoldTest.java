package io.durablebatch.deployment.test.retention;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertRefused;
import static io.durablebatch.deployment.test.RepositoryTestSupport.freshJobName;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.Race;
import io.durablebatch.deployment.test.RepositoryFixtures;
import io.durablebatch.deployment.test.StoredState;
import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobInstance;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.ReasonCode;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.retention.RetentionHold;
import io.durablebatch.repository.spi.KernelRepository;
import io.quarkus.test.QuarkusUnitTest;

/** SPEC 9: one retention hold per instance, enforced by the database. */
class RetentionHoldTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp();

    private static final ActorRef LEGAL = ActorRef.of("legal@example.org");
    private static final ReasonCode LITIGATION = ReasonCode.of("LITIGATION");

    @Inject
    KernelRepository repository;

    @Inject
    RepositoryFixtures given;

    @Inject
    StoredState state;

    @Test
    void placesAndReadsTheHold() {
        JobInstance instance = finished();
        Instant at = now();

        RetentionHold placed = tx(() -> repository.placeInstanceHold(instance.id(), LEGAL, LITIGATION, at));

        assertEquals(new RetentionHold(instance.id(), LEGAL, LITIGATION, at), placed);
        assertEquals(placed, tx(() -> repository.jobInstanceHold(instance.id())).orElseThrow());
    }

    @Test
    void anInstanceWithoutAHoldHasNone() {
        JobInstance instance = finished();

        assertTrue(tx(() -> repository.jobInstanceHold(instance.id())).isEmpty());
    }

    @Test
    void aSecondHoldIsRefusedAndTheFirstStands() {
        JobInstance instance = finished();
        tx(() -> repository.placeInstanceHold(instance.id(), LEGAL, LITIGATION, now()));
        List<Map<String, Object>> before = holdRows(instance.id());

        RepositoryException refusal = assertRefused(RepositoryError.HOLD_EXISTS, () -> repository.placeInstanceHold(
                instance.id(), ActorRef.of("audit"), ReasonCode.of("AUDIT"), now()));

        assertTrue(refusal.getMessage().contains("legal@example.org"), refusal::getMessage);
        assertEquals(before, holdRows(instance.id()));
        assertRefused(RepositoryError.HOLD_EXISTS,
                () -> repository.placeInstanceHold(instance.id(), LEGAL, LITIGATION, now()));
        assertEquals(before, holdRows(instance.id()));
    }

    @Test
    void ofConcurrentHoldsOnOneInstanceExactlyOneIsPlaced() {
        JobInstance instance = finished();
        int callers = 8;

        List<Race.Outcome<RetentionHold>> outcomes = Race.run(callers, caller -> tx(() -> repository.placeInstanceHold(
                instance.id(), ActorRef.of("actor-" + caller), LITIGATION, now())));

        assertEquals(Map.of("ok", 1L, "HOLD_EXISTS", callers - 1L), Race.codes(outcomes));
        assertEquals(1, holdRows(instance.id()).size());
    }

    @Test
    void releasingReturnsTheHoldAndLiftsIt() {
        JobInstance instance = finished();
        RetentionHold placed = tx(() -> repository.placeInstanceHold(instance.id(), LEGAL, LITIGATION, now()));

        assertEquals(placed, tx(() -> repository.releaseInstanceHold(instance.id())).orElseThrow());

        assertTrue(tx(() -> repository.jobInstanceHold(instance.id())).isEmpty());
        assertTrue(tx(() -> repository.releaseInstanceHold(instance.id())).isEmpty());
        tx(() -> repository.placeInstanceHold(instance.id(), LEGAL, ReasonCode.of("AGAIN"), now()));
    }

    @Test
    void aMissingInstanceCannotBeHeld() {
        JobInstanceId missing = JobInstanceId.of(Long.MAX_VALUE);

        assertRefused(RepositoryError.JOB_INSTANCE_NOT_FOUND,
                () -> repository.placeInstanceHold(missing, LEGAL, LITIGATION, now()));

        assertTrue(holdRows(missing).isEmpty());
    }

    private JobInstance finished() {
        return given.instanceWithHistory(freshJobName("hold"), 1, ExecutionStatus.COMPLETED);
    }

    private List<Map<String, Object>> holdRows(JobInstanceId id) {
        return state.rows("SELECT * FROM {p}retention_hold WHERE job_instance_id = ?", id.value());
    }
}
