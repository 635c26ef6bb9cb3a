package io.durablebatch.deployment.test.lifecycle;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertStatements;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.execution.ExecutionStatus.COMPLETED;
import static io.durablebatch.execution.ExecutionStatus.FAILED;
import static io.durablebatch.execution.ExecutionStatus.STARTED;
import static io.durablebatch.execution.ExecutionStatus.STOPPED;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryFixtures;
import io.durablebatch.deployment.test.StoredState;
import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.ExecutionFailure;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobInstance;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepName;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.control.OwnerToken;
import io.durablebatch.repository.flow.NodeId;
import io.durablebatch.repository.flow.StartLimit;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The kernel's one-statement shortcuts (a launch STARTED and claimed, a flow step STARTED at once,
 * the owner's end) leave the rows the long way leaves, and refuse what it refuses, changing nothing.
 */
class KernelShortcutsTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp();

    private static final OwnerToken OWNER = OwnerToken.of("node-a/boot-1");
    private static final OwnerToken OTHER = OwnerToken.of("node-b/boot-9");
    private static final NodeId LOAD = NodeId.of("load");

    @Inject
    KernelRepository repository;

    @Inject
    RepositoryFixtures given;

    @Inject
    StoredState state;

    @Inject
    MetadataSql sql;

    @Test
    void aLaunchIsAnAttemptClaimedAndStartedInOneStatement() {
        JobInstance instance = given.newInstance("shortcut");

        JobExecution launched = tx(() -> assertStatements(sql, 1,
                () -> repository.launchJobExecution(JobExecutionRequest.of(instance.id()), OWNER, now())));

        assertEquals(STARTED, launched.status());
        assertEquals(1, launched.attempt());
        assertTrue(launched.startedAt().isPresent(), "started at");
        Map<String, Object> row = state.jobExecutionRow(launched.id());
        assertEquals(OWNER.value(), row.get("owner_token"));
        assertNotNull(row.get("owner_claimed_at"));
        assertNotNull(row.get("lease_expires_at"), "the lease");
        // the owner goes on as it would after a claim and a start
        assertEquals(STARTED, tx(() -> repository.observeExecutionControl(launched.id(), OWNER, now())).status());
    }

    @Test
    void aLaunchRefusesWhatCreatingAnAttemptRefuses() {
        JobExecution active = given.ownedBy(OWNER, STARTED);
        state.assertRefusedChangingNothing(active.jobInstanceId(), RepositoryError.EXECUTION_ACTIVE,
                () -> repository.launchJobExecution(JobExecutionRequest.of(active.jobInstanceId()), OWNER, now()));

        JobExecution completed = given.jobExecutionIn(COMPLETED);
        state.assertRefusedChangingNothing(completed.jobInstanceId(), RepositoryError.INSTANCE_COMPLETE,
                () -> repository.launchJobExecution(JobExecutionRequest.of(completed.jobInstanceId()), OWNER, now()));
    }

    @Test
    void aFlowStepStartsStartedWithItsLeaseAndTheCheckpointItResumes() {
        JobExecution running = given.ownedBy(OWNER, STARTED);
        Checkpoint resumed = Checkpoint.of("row-42".getBytes(StandardCharsets.UTF_8));

        StepExecution step = tx(() -> assertStatements(sql, 1, () -> repository.startFlowStepExecution(running.id(),
                StepName.of("load"), LOAD, StartLimit.of(1), Optional.of(resumed), now())));

        assertEquals(STARTED, step.status());
        assertTrue(step.startedAt().isPresent(), "started at");
        assertArrayEquals(resumed.bytes(), step.checkpoint().orElseThrow().bytes());
        assertNotNull(state.rows("SELECT lease_expires_at FROM {p}step_execution WHERE id = ?", step.id().value())
                .get(0).get("lease_expires_at"), "the lease");
        assertEquals(1, tx(() -> repository.latestFlowStep(running.jobInstanceId(), LOAD)).orElseThrow()
                .startsConsumed());
    }

    @Test
    void aFlowStepStartRefusesWhatCreatingOneRefuses() {
        JobExecution running = given.ownedBy(OWNER, STARTED);
        tx(() -> repository.startFlowStepExecution(running.id(), StepName.of("load"), LOAD, StartLimit.of(1),
                Optional.empty(), now()));
        state.assertRefusedChangingNothing(running.jobInstanceId(), RepositoryError.START_LIMIT_EXCEEDED,
                () -> repository.startFlowStepExecution(running.id(), StepName.of("load"), LOAD, StartLimit.of(1),
                        Optional.empty(), now()));

        JobExecution ended = given.jobExecutionIn(FAILED);
        state.assertRefusedChangingNothing(ended.jobInstanceId(), RepositoryError.EXECUTION_NOT_ACTIVE,
                () -> repository.startFlowStepExecution(ended.id(), StepName.of("load"), LOAD, StartLimit.UNLIMITED,
                        Optional.empty(), now()));
    }

    @Test
    void theOwnersEndNeedsNoVersionAndIsOneStatement() {
        JobExecution owned = given.ownedBy(OWNER, STARTED);
        // a stop request moved the version since the owner read it: the end does not care
        tx(() -> repository.requestExecutionStop(owned.id(), owned.version(), ActorRef.of("operator"), now()));

        JobExecution ended = tx(() -> assertStatements(sql, 1, () -> repository.endOwnedJobExecution(owned.id(), OWNER,
                LifecycleTransition.to(COMPLETED, now()))));

        assertEquals(COMPLETED, ended.status());
        assertEquals(owned.version().next().next(), ended.version());
        assertTrue(ended.endedAt().isPresent(), "ended at");
    }

    @Test
    void theOwnersFailureRecordsItsCause() {
        JobExecution owned = given.ownedBy(OWNER, STARTED);

        JobExecution ended = tx(() -> repository.endOwnedJobExecution(owned.id(), OWNER, LifecycleTransition
                .to(FAILED, now()).withFailure(new ExecutionFailure("Boom", "it broke"))));

        assertEquals(FAILED, ended.status());
        assertEquals(Optional.of(new ExecutionFailure("Boom", "it broke")), ended.failure());
    }

    @Test
    void onlyTheOwnerEndsAnActiveExecution() {
        JobExecution owned = given.ownedBy(OWNER, STARTED);
        state.assertRefusedChangingNothing(owned.jobInstanceId(), RepositoryError.OWNER_MISMATCH,
                () -> repository.endOwnedJobExecution(owned.id(), OTHER, LifecycleTransition.to(COMPLETED, now())));

        tx(() -> repository.endOwnedJobExecution(owned.id(), OWNER, LifecycleTransition.to(COMPLETED, now())));
        state.assertRefusedChangingNothing(owned.jobInstanceId(), RepositoryError.EXECUTION_NOT_ACTIVE,
                () -> repository.endOwnedJobExecution(owned.id(), OWNER, LifecycleTransition.to(FAILED, now())));
    }

    @Test
    void aStopIsNotAnOwnersEnd() {
        JobExecution owned = given.ownedBy(OWNER, STARTED);
        List<String> before = state.of(owned.jobInstanceId());

        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> tx(
                () -> repository.endOwnedJobExecution(owned.id(), OWNER, LifecycleTransition.to(STOPPED, now()))));

        assertTrue(refused.getMessage().contains("end.target"), refused.getMessage());
        assertEquals(before, state.of(owned.jobInstanceId()));
    }
}
