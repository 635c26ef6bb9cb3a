package io.durablebatch.deployment.test.operator;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertRefused;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.Race;
import io.durablebatch.deployment.test.RepositoryFixtures;
import io.durablebatch.deployment.test.StoredState;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.control.OwnerToken;
import io.durablebatch.repository.spi.KernelRepository;
import io.quarkus.test.QuarkusUnitTest;

/** SPEC 8: the owner token is evidence, not a lease: claimed once, while STARTING, never taken over. */
class ExecutionOwnerClaimTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp();

    private static final OwnerToken OWNER = OwnerToken.of("node-a/boot-1");
    private static final OwnerToken OTHER = OwnerToken.of("node-b/boot-9");

    @Inject
    KernelRepository repository;

    @Inject
    RepositoryFixtures given;

    @Inject
    StoredState state;

    @Test
    void claimsAStartingExecution() {
        JobExecution starting = given.jobExecutionIn("operator", ExecutionStatus.STARTING);

        JobExecution claimed = tx(() -> repository.claimExecutionOwner(starting.id(), starting.version(), OWNER, now()));

        assertEquals(ExecutionStatus.STARTING, claimed.status());
        assertEquals(starting.version().next(), claimed.version());
        assertEquals("node-a/boot-1", state.jobExecutionRow(starting.id()).get("owner_token"));
    }

    @Test
    void claimingAgainWithTheSameTokenChangesNothing() {
        JobExecution starting = given.jobExecutionIn("operator", ExecutionStatus.STARTING);
        JobExecution claimed = tx(() -> repository.claimExecutionOwner(starting.id(), starting.version(), OWNER, now()));
        List<String> before = state.of(starting.jobInstanceId());

        // a retry with the version it saw before its first claim, and one with the current version
        JobExecution retried = tx(() -> repository.claimExecutionOwner(starting.id(), starting.version(), OWNER, now()));
        JobExecution repeated = tx(() -> repository.claimExecutionOwner(starting.id(), claimed.version(), OWNER, now()));

        assertEquals(claimed, retried);
        assertEquals(claimed, repeated);
        assertEquals(before, state.of(starting.jobInstanceId()));
    }

    @Test
    void anotherTokenIsRefusedAndNeverTakesOver() {
        JobExecution claimed = given.ownedBy(OWNER, ExecutionStatus.STARTING);

        state.assertRefusedChangingNothing(claimed.jobInstanceId(), RepositoryError.OWNER_MISMATCH,
                () -> repository.claimExecutionOwner(claimed.id(), claimed.version(), OTHER, now()));
        assertRefused(RepositoryError.OWNER_MISMATCH, () -> repository.observeExecutionControl(claimed.id(), OTHER, now()));
    }

    @Test
    void anotherTokenIsRefusedEvenOnceTheExecutionRuns() {
        JobExecution started = given.ownedBy(OWNER, ExecutionStatus.STARTED);

        state.assertRefusedChangingNothing(started.jobInstanceId(), RepositoryError.OWNER_MISMATCH,
                () -> repository.claimExecutionOwner(started.id(), started.version(), OTHER, now()));
    }

    @Test
    void onlyAStartingExecutionCanBeClaimed() {
        JobExecution starting = given.jobExecutionIn("operator", ExecutionStatus.STARTING);
        JobExecution started = tx(() -> repository.transitionJobExecution(starting.id(), starting.version(),
                LifecycleTransition.to(ExecutionStatus.STARTED, now())));
        state.assertRefusedChangingNothing(started.jobInstanceId(), RepositoryError.OWNER_NOT_CLAIMABLE,
                () -> repository.claimExecutionOwner(started.id(), started.version(), OWNER, now()));
    }

    @Test
    void theOwnerCannotClaimAgainOnceTheExecutionRuns() {
        JobExecution started = given.ownedBy(OWNER, ExecutionStatus.STARTED);

        state.assertRefusedChangingNothing(started.jobInstanceId(), RepositoryError.OWNER_NOT_CLAIMABLE,
                () -> repository.claimExecutionOwner(started.id(), started.version(), OWNER, now()));
    }

    @Test
    void aStaleVersionIsRefusedAndChangesNothing() {
        JobExecution starting = given.jobExecutionIn("operator", ExecutionStatus.STARTING);

        state.assertRefusedChangingNothing(starting.jobInstanceId(), RepositoryError.VERSION_CONFLICT,
                () -> repository.claimExecutionOwner(starting.id(), ExecutionVersion.of(7), OWNER, now()));
    }

    @Test
    void aMissingExecutionIsRefused() {
        assertRefused(RepositoryError.JOB_EXECUTION_NOT_FOUND, () -> repository.claimExecutionOwner(
                JobExecutionId.of(Long.MAX_VALUE), ExecutionVersion.INITIAL, OWNER, now()));
    }

    @Test
    void ofConcurrentClaimantsExactlyOneOwnsTheExecution() {
        JobExecution starting = given.jobExecutionIn("operator", ExecutionStatus.STARTING);
        int claimants = 8;

        List<Race.Outcome<JobExecution>> outcomes = Race.run(claimants, claimant -> tx(() -> repository
                .claimExecutionOwner(starting.id(), starting.version(), OwnerToken.of("node-" + claimant + "/boot-1"),
                        now())));

        assertEquals(Map.of("ok", 1L, "OWNER_MISMATCH", claimants - 1L), Race.codes(outcomes));
        assertEquals(starting.version().next(), tx(() -> repository.getJobExecution(starting.id())).orElseThrow().version());
    }
}
