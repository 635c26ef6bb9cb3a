package io.durablebatch.deployment.test.flow;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertRefused;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.rolledBack;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.Race;
import io.durablebatch.deployment.test.RepositoryFixtures;
import io.durablebatch.deployment.test.StoredState;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepName;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.flow.FlowStepState;
import io.durablebatch.repository.flow.NodeId;
import io.durablebatch.repository.flow.StartLimit;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.test.QuarkusUnitTest;

/** SPEC §6: a flow node's starts are counted per instance, by node id, under concurrency. */
class FlowStartLimitTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp();

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
    void startLimitCountsTheStartsOfEveryExecutionOfTheInstance() {
        JobExecution first = given.jobExecutionIn("flow-limit", ExecutionStatus.STARTED);
        failFlowStep(first, "load", LOAD, StartLimit.of(2));
        given.move(first, ExecutionStatus.FAILED);
        JobExecution second = given.attemptIn(first.jobInstanceId(), ExecutionStatus.STARTED);
        failFlowStep(second, "load", LOAD, StartLimit.of(2));
        given.move(second, ExecutionStatus.FAILED);
        JobExecution third = given.attemptIn(first.jobInstanceId(), ExecutionStatus.STARTED);

        RepositoryException refusal = state.assertRefusedChangingNothing(first.jobInstanceId(),
                RepositoryError.START_LIMIT_EXCEEDED,
                () -> repository.createFlowStepExecution(third.id(), StepName.of("load"), LOAD, StartLimit.of(2)));
        assertTrue(refusal.getMessage().contains("already started 2 times"), refusal::getMessage);
        assertEquals(2, tx(() -> repository.latestFlowStep(first.jobInstanceId(), LOAD)).orElseThrow().startsConsumed());

        // a higher limit lets the node start once more, and that start is counted
        StepExecution started = tx(() -> repository.createFlowStepExecution(third.id(), StepName.of("load"), LOAD,
                StartLimit.of(3)));
        assertEquals(ExecutionStatus.STARTING, started.status());
        assertEquals(3, tx(() -> repository.latestFlowStep(first.jobInstanceId(), LOAD)).orElseThrow().startsConsumed());
    }

    @Test
    void nodeIdNotStepNameIsTheRestartAuthority() {
        JobExecution first = given.jobExecutionIn("flow-rename", ExecutionStatus.STARTED);
        StepExecution original = failFlowStep(first, "load", LOAD, StartLimit.UNLIMITED);
        // another node may reuse the display name; a plain step of that name is no flow node at all
        StepExecution sameNameOtherNode = tx(() -> repository.createFlowStepExecution(first.id(), StepName.of("load"),
                NodeId.of("audit"), StartLimit.UNLIMITED));
        tx(() -> repository.createStepExecution(first.id(), StepName.of("load")));
        given.move(first, ExecutionStatus.FAILED);

        JobExecution second = given.attemptIn(first.jobInstanceId(), ExecutionStatus.STARTED);
        StepExecution renamed = tx(() -> repository.createFlowStepExecution(second.id(), StepName.of("load-customers"),
                LOAD, StartLimit.of(2)));

        FlowStepState load = tx(() -> repository.latestFlowStep(first.jobInstanceId(), LOAD)).orElseThrow();
        assertEquals(renamed, load.latest(), "the renamed attempt is the node's latest");
        assertEquals(2, load.startsConsumed(), "the rename kept the node's history");
        assertFalse(load.mayStart(StartLimit.of(2)));
        assertRefused(RepositoryError.START_LIMIT_EXCEEDED, () -> repository.createFlowStepExecution(second.id(),
                StepName.of("load-customers"), LOAD, StartLimit.of(2)));

        FlowStepState audit = tx(() -> repository.latestFlowStep(first.jobInstanceId(), NodeId.of("audit"))).orElseThrow();
        assertEquals(sameNameOtherNode, audit.latest());
        assertEquals(1, audit.startsConsumed());
        assertEquals(original.stepName(), sameNameOtherNode.stepName());
    }

    @Test
    void sixteenStartersRacingForOneNodeWithLimitThreeMakeExactlyThreeAttempts() {
        JobExecution execution = given.jobExecutionIn("flow-race", ExecutionStatus.STARTED);
        NodeId node = NodeId.of("contended");

        List<Race.Outcome<StepExecution>> outcomes = Race.run(16, racer -> tx(() -> repository
                .createFlowStepExecution(execution.id(), StepName.of("racer-" + racer), node, StartLimit.of(3))));

        assertEquals(Map.of("ok", 3L, "START_LIMIT_EXCEEDED", 13L), Race.codes(outcomes));
        List<StepExecution> steps = tx(() -> repository.stepExecutions(execution.id()));
        assertEquals(3, steps.size(), "exactly three attempts exist");
        assertEquals(3, tx(() -> repository.latestFlowStep(execution.jobInstanceId(), node)).orElseThrow()
                .startsConsumed());
    }

    @Test
    void aRolledBackStartGivesItsStartBack() {
        JobExecution execution = given.jobExecutionIn("flow-rollback", ExecutionStatus.STARTED);
        List<String> before = state.of(execution.jobInstanceId());
        rolledBack(() -> repository.createFlowStepExecution(execution.id(), StepName.of("load"), LOAD,
                StartLimit.of(1)));
        assertEquals(before, state.of(execution.jobInstanceId()));
        assertTrue(tx(() -> repository.latestFlowStep(execution.jobInstanceId(), LOAD)).isEmpty());
        tx(() -> repository.createFlowStepExecution(execution.id(), StepName.of("load"), LOAD, StartLimit.of(1)));
    }

    @Test
    void aStartIsOneStatement() {
        JobExecution execution = given.jobExecutionIn("flow-cost", ExecutionStatus.STARTED);
        long before = sql.statementsExecutedOnThisThread();
        tx(() -> repository.createFlowStepExecution(execution.id(), StepName.of("load"), LOAD, StartLimit.of(5)));
        tx(() -> repository.createFlowStepExecution(execution.id(), StepName.of("load"), LOAD, StartLimit.of(5)));
        assertEquals(2, sql.statementsExecutedOnThisThread() - before, "one statement per start, the first and later ones");
    }

    @Test
    void flowStepsStartOnlyInAnActiveJobExecution() {
        JobExecution execution = given.jobExecutionIn("flow-inactive", ExecutionStatus.STARTED);
        JobExecution failed = given.move(execution, ExecutionStatus.FAILED);
        state.assertRefusedChangingNothing(execution.jobInstanceId(), RepositoryError.EXECUTION_NOT_ACTIVE,
                () -> repository.createFlowStepExecution(failed.id(), StepName.of("load"), LOAD, StartLimit.UNLIMITED));
        state.assertRefusedChangingNothing(execution.jobInstanceId(), RepositoryError.JOB_EXECUTION_NOT_FOUND,
                () -> repository.createFlowStepExecution(JobExecutionId.of(Long.MAX_VALUE), StepName.of("load"), LOAD,
                        StartLimit.UNLIMITED));
        assertTrue(tx(() -> repository.latestFlowStep(execution.jobInstanceId(), LOAD)).isEmpty());
    }

    @Test
    void flowOperationsNeedATransaction() {
        JobExecution execution = given.jobExecutionIn("flow-no-tx", ExecutionStatus.STARTED);
        RepositoryException refusal = assertThrows(RepositoryException.class,
                () -> repository.createFlowStepExecution(execution.id(), StepName.of("load"), LOAD, StartLimit.of(1)));
        assertEquals(RepositoryError.TRANSACTION_REQUIRED, refusal.error());
    }

    private StepExecution failFlowStep(JobExecution execution, String name, NodeId node, StartLimit limit) {
        StepExecution step = tx(() -> repository.createFlowStepExecution(execution.id(), StepName.of(name), node, limit));
        StepExecution started = given.move(step, LifecycleTransition.to(ExecutionStatus.STARTED, now()));
        return given.move(started, LifecycleTransition.to(ExecutionStatus.FAILED, now()));
    }
}
