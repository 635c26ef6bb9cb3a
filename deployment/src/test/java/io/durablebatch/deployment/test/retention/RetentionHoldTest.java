package io.durablebatch.deployment.test.retention;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertRefused;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
import io.durablebatch.repository.ActorRef;
import io.durablebatch.repository.ExecutionStatus;
import io.durablebatch.repository.JobInstance;
import io.durablebatch.repository.JobInstanceId;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.ReasonCode;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.retention.RetentionHold;
import io.quarkus.test.QuarkusUnitTest;

/** SPEC 9: one retention hold per instance, enforced by the database. */
class RetentionHoldTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RepositoryTestApp.with(RepositoryTestSupport.class, Rows.class,
            RetentionFixtures.class);

    private static final ActorRef LEGAL = ActorRef.of("legal@example.org");
    private static final ReasonCode LITIGATION = ReasonCode.of("LITIGATION");

    @Inject
    JobRepository repository;

    @Inject
    AgroalDataSource dataSource;

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
    void ofConcurrentHoldsOnOneInstanceExactlyOneIsPlaced() throws Exception {
        JobInstance instance = finished();
        int callers = 8;
        CountDownLatch ready = new CountDownLatch(callers);
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        try {
            List<Future<String>> outcomes = new ArrayList<>();
            for (int i = 0; i < callers; i++) {
                ActorRef actor = ActorRef.of("actor-" + i);
                outcomes.add(pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    try {
                        tx(() -> repository.placeInstanceHold(instance.id(), actor, LITIGATION, now()));
                        return "PLACED";
                    } catch (RepositoryException e) {
                        return e.error().name();
                    }
                }));
            }
            ready.await();
            go.countDown();
            List<String> seen = new ArrayList<>();
            for (Future<String> outcome : outcomes) {
                seen.add(outcome.get());
            }
            assertEquals(1, seen.stream().filter("PLACED"::equals).count(), seen::toString);
            assertEquals(callers - 1, seen.stream().filter("HOLD_EXISTS"::equals).count(), seen::toString);
        } finally {
            pool.shutdownNow();
        }
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
        return RetentionFixtures.instance(repository, RetentionFixtures.freshJob("hold"), 1, ExecutionStatus.COMPLETED);
    }

    private List<Map<String, Object>> holdRows(JobInstanceId id) {
        return Rows.select(dataSource, "SELECT * FROM dbatch_retention_hold WHERE job_instance_id = ?", id.value());
    }
}
