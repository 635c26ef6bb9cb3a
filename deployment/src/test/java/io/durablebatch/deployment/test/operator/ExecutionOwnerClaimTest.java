package io.durablebatch.deployment.test.operator;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertRefused;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.deployment.test.operator.OperatorFixtures.row;
import static org.junit.jupiter.api.Assertions.assertEquals;

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
import io.durablebatch.operator.OwnerToken;
import io.durablebatch.repository.ExecutionStatus;
import io.durablebatch.repository.ExecutionVersion;
import io.durablebatch.repository.JobExecution;
import io.durablebatch.repository.JobExecutionId;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.quarkus.test.QuarkusUnitTest;

/** SPEC 8: the owner token is evidence, not a lease: claimed once, while STARTING, never taken over. */
class ExecutionOwnerClaimTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RepositoryTestApp.with(RepositoryTestSupport.class, Rows.class,
            OperatorFixtures.class);

    private static final OwnerToken OWNER = OwnerToken.of("node-a/boot-1");
    private static final OwnerToken OTHER = OwnerToken.of("node-b/boot-9");

    @Inject
    JobRepository repository;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void claimsAStartingExecution() {
        JobExecution starting = OperatorFixtures.starting(repository);

        JobExecution claimed = tx(() -> repository.claimExecutionOwner(starting.id(), starting.version(), OWNER, now()));

        assertEquals(ExecutionStatus.STARTING, claimed.status());
        assertEquals(starting.version().next(), claimed.version());
        assertEquals("node-a/boot-1", row(dataSource, starting.id()).get(0).get("owner_token"));
    }

    @Test
    void claimingAgainWithTheSameTokenChangesNothing() {
        JobExecution starting = OperatorFixtures.starting(repository);
        JobExecution claimed = tx(() -> repository.claimExecutionOwner(starting.id(), starting.version(), OWNER, now()));
        List<Map<String, Object>> before = row(dataSource, starting.id());

        // a retry with the version it saw before its first claim, and one with the current version
        JobExecution retried = tx(() -> repository.claimExecutionOwner(starting.id(), starting.version(), OWNER, now()));
        JobExecution repeated = tx(() -> repository.claimExecutionOwner(starting.id(), claimed.version(), OWNER, now()));

        assertEquals(claimed, retried);
        assertEquals(claimed, repeated);
        assertEquals(before, row(dataSource, starting.id()));
    }

    @Test
    void anotherTokenIsRefusedAndNeverTakesOver() {
        JobExecution claimed = OperatorFixtures.claimed(repository, OWNER);
        List<Map<String, Object>> before = row(dataSource, claimed.id());

        assertRefused(RepositoryError.OWNER_MISMATCH,
                () -> repository.claimExecutionOwner(claimed.id(), claimed.version(), OTHER, now()));

        assertEquals(before, row(dataSource, claimed.id()));
        assertRefused(RepositoryError.OWNER_MISMATCH, () -> repository.observeExecutionControl(claimed.id(), OTHER, now()));
    }

    @Test
    void anotherTokenIsRefusedEvenOnceTheExecutionRuns() {
        JobExecution started = OperatorFixtures.started(repository, OWNER);
        List<Map<String, Object>> before = row(dataSource, started.id());

        assertRefused(RepositoryError.OWNER_MISMATCH,
                () -> repository.claimExecutionOwner(started.id(), started.version(), OTHER, now()));

        assertEquals(before, row(dataSource, started.id()));
    }

    @Test
    void onlyAStartingExecutionCanBeClaimed() {
        JobExecution starting = OperatorFixtures.starting(repository);
        JobExecution started = tx(() -> repository.transitionJobExecution(starting.id(), starting.version(),
                LifecycleTransition.to(ExecutionStatus.STARTED, now())));
        List<Map<String, Object>> before = row(dataSource, started.id());

        assertRefused(RepositoryError.OWNER_NOT_CLAIMABLE,
                () -> repository.claimExecutionOwner(started.id(), started.version(), OWNER, now()));

        assertEquals(before, row(dataSource, started.id()));
    }

    @Test
    void theOwnerCannotClaimAgainOnceTheExecutionRuns() {
        JobExecution started = OperatorFixtures.started(repository, OWNER);
        List<Map<String, Object>> before = row(dataSource, started.id());

        assertRefused(RepositoryError.OWNER_NOT_CLAIMABLE,
                () -> repository.claimExecutionOwner(started.id(), started.version(), OWNER, now()));

        assertEquals(before, row(dataSource, started.id()));
    }

    @Test
    void aStaleVersionIsRefusedAndChangesNothing() {
        JobExecution starting = OperatorFixtures.starting(repository);
        List<Map<String, Object>> before = row(dataSource, starting.id());

        assertRefused(RepositoryError.VERSION_CONFLICT,
                () -> repository.claimExecutionOwner(starting.id(), ExecutionVersion.of(7), OWNER, now()));

        assertEquals(before, row(dataSource, starting.id()));
    }

    @Test
    void aMissingExecutionIsRefused() {
        assertRefused(RepositoryError.JOB_EXECUTION_NOT_FOUND, () -> repository.claimExecutionOwner(
                JobExecutionId.of(Long.MAX_VALUE), ExecutionVersion.INITIAL, OWNER, now()));
    }

    @Test
    void ofConcurrentClaimantsExactlyOneOwnsTheExecution() throws Exception {
        JobExecution starting = OperatorFixtures.starting(repository);
        int claimants = 8;
        CountDownLatch ready = new CountDownLatch(claimants);
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(claimants);
        try {
            List<Future<String>> outcomes = new ArrayList<>();
            for (int i = 0; i < claimants; i++) {
                OwnerToken token = OwnerToken.of("node-" + i + "/boot-1");
                outcomes.add(pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    try {
                        tx(() -> repository.claimExecutionOwner(starting.id(), starting.version(), token, now()));
                        return "OWNER";
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
            assertEquals(1, seen.stream().filter("OWNER"::equals).count(), seen::toString);
            assertEquals(claimants - 1, seen.stream().filter("OWNER_MISMATCH"::equals).count(), seen::toString);
        } finally {
            pool.shutdownNow();
        }
        assertEquals(starting.version().next(), tx(() -> repository.getJobExecution(starting.id())).orElseThrow().version());
    }
}
