package io.durablebatch.deployment.test.flow;

import static io.durablebatch.deployment.test.RepositoryTestSupport.freshKey;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.rolledBack;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.Race;
import io.durablebatch.deployment.test.RepositoryFixtures;
import io.durablebatch.deployment.test.StoredState;
import io.durablebatch.execution.DefinitionIdentity;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstance;
import io.durablebatch.execution.PlanFingerprint;
import io.durablebatch.execution.StepName;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.flow.FlowDecision;
import io.durablebatch.repository.flow.FlowDecisionRequest;
import io.durablebatch.repository.flow.FlowTransitionKind;
import io.durablebatch.repository.flow.InputDigest;
import io.durablebatch.repository.flow.NodeId;
import io.durablebatch.repository.flow.StartLimit;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.test.QuarkusUnitTest;

/** SPEC §6: flow decisions are numbered without gaps, precede their target, and are replayed on restart. */
class FlowDecisionTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp();

    private static final PlanFingerprint PLAN = PlanFingerprint.of(sha("plan-v1"));
    private static final NodeId CHECK = NodeId.of("check");
    private static final NodeId LOAD = NodeId.of("load");
    private static final NodeId REPAIR = NodeId.of("repair");

    @Inject
    KernelRepository repository;

    @Inject
    RepositoryFixtures given;

    @Inject
    StoredState state;

    @Inject
    MetadataSql sql;

    @Test
    void decisionsAreNumberedFromOneWithoutGapsInOneStatementEach() {
        JobExecution execution = given.jobExecutionIn("decision-sequence", ExecutionStatus.STARTED);
        long before = sql.statementsExecutedOnThisThread();
        FlowDecision first = tx(() -> repository.appendFlowDecision(next(execution.id(), CHECK, LOAD, "input-1")));
        assertEquals(1, sql.statementsExecutedOnThisThread() - before, "an append is one statement");
        // a rolled-back append gives its number back
        rolledBack(() -> repository.appendFlowDecision(next(execution.id(), LOAD, REPAIR, "input-2")));
        FlowDecision second = tx(() -> repository.appendFlowDecision(next(execution.id(), LOAD, NodeId.of("report"),
                "input-2")));
        FlowDecision end = tx(() -> repository.appendFlowDecision(new FlowDecisionRequest(execution.id(),
                NodeId.of("report"), Optional.empty(), FlowTransitionKind.END, PLAN, digest("input-3"),
                ExitStatus.of("COMPLETED"), now())));

        assertEquals(List.of(1, 2, 3), List.of(first.sequence(), second.sequence(), end.sequence()));
        assertEquals(List.of(first, second, end), tx(() -> repository.flowDecisions(execution.id())));
        assertEquals(Optional.empty(), end.toNode());
        assertEquals(execution.jobInstanceId(), first.jobInstanceId());
    }

    @Test
    void concurrentAppendersInOneExecutionGetGapFreeSequenceNumbers() {
        JobExecution execution = given.jobExecutionIn("decision-race", ExecutionStatus.STARTED);

        List<Race.Outcome<FlowDecision>> outcomes = Race.run(16, racer -> tx(() -> repository.appendFlowDecision(
                next(execution.id(), NodeId.of("split-" + racer), NodeId.of("branch-" + racer), "input-" + racer))));

        assertEquals(Map.of("ok", 16L), Race.codes(outcomes));
        assertEquals(IntStream.rangeClosed(1, 16).boxed().toList(),
                outcomes.stream().map(outcome -> outcome.result().sequence()).sorted().toList());
        assertEquals(IntStream.rangeClosed(1, 16).boxed().toList(),
                tx(() -> repository.flowDecisions(execution.id())).stream().map(FlowDecision::sequence).toList());
    }

    @Test
    void aDecisionWhoseTargetAlreadyStartedInThisExecutionIsRefused() {
        JobExecution first = given.jobExecutionIn("decision-target", ExecutionStatus.STARTED);
        tx(() -> repository.appendFlowDecision(next(first.id(), CHECK, LOAD, "input")));
        tx(() -> repository.createFlowStepExecution(first.id(), StepName.of("load"), LOAD, StartLimit.UNLIMITED));

        state.assertRefusedChangingNothing(first.jobInstanceId(), RepositoryError.FLOW_DECISION_TARGET_STARTED,
                () -> repository.appendFlowDecision(next(first.id(), CHECK, LOAD, "input")));

        // a target that started in an earlier execution may be decided again by the restart
        given.move(first, ExecutionStatus.FAILED);
        JobExecution second = given.attemptIn(first.jobInstanceId(), ExecutionStatus.STARTED);
        FlowDecision replayed = tx(() -> repository.appendFlowDecision(next(second.id(), CHECK, LOAD, "input")));
        assertEquals(1, replayed.sequence(), "sequences are per execution");
    }

    @Test
    void aStopsRestartPositionMayBeANodeThisExecutionRan() {
        JobExecution execution = given.jobExecutionIn("decision-stop-position", ExecutionStatus.STARTED);
        tx(() -> repository.appendFlowDecision(next(execution.id(), CHECK, LOAD, "input")));
        tx(() -> repository.createFlowStepExecution(execution.id(), StepName.of("load"), LOAD, StartLimit.UNLIMITED));

        FlowDecision stop = tx(() -> repository.appendFlowDecision(new FlowDecisionRequest(execution.id(), LOAD,
                Optional.of(LOAD), FlowTransitionKind.STOP, PLAN, digest("stop"), ExitStatus.of("PAUSE"), now())));

        assertEquals(Optional.of(LOAD), stop.toNode(), "recorded as where the next execution begins");
        assertEquals(FlowTransitionKind.STOP, tx(() -> repository.flowDecisions(execution.id())).get(1).kind());
        state.assertRefusedChangingNothing(execution.jobInstanceId(), RepositoryError.FLOW_DECISION_TARGET_STARTED,
                () -> repository.appendFlowDecision(next(execution.id(), CHECK, LOAD, "input")));
    }

    @Test
    void aDecisionUnderAnotherPlanThanTheExecutionsDefinitionIsRefused() {
        JobInstance instance = tx(() -> repository.selectOrCreateJobInstance(freshKey("decision-plan"))).instance();
        DefinitionIdentity definition = new DefinitionIdentity(instance.jobName(), "r1", PLAN);
        JobExecution execution = given.move(
                tx(() -> repository.createJobExecution(JobExecutionRequest.of(instance.id()).definedBy(definition))),
                ExecutionStatus.STARTED);

        FlowDecisionRequest otherPlan = new FlowDecisionRequest(execution.id(), CHECK, Optional.of(LOAD),
                FlowTransitionKind.NEXT, PlanFingerprint.of(sha("plan-v2")), digest("input"), ExitStatus.of("COMPLETED"),
                now());
        state.assertRefusedChangingNothing(instance.id(), RepositoryError.FLOW_PLAN_MISMATCH,
                () -> repository.appendFlowDecision(otherPlan));
        assertEquals(1, tx(() -> repository.appendFlowDecision(next(execution.id(), CHECK, LOAD, "input"))).sequence());
    }

    @Test
    void decisionsAreAppendedOnlyWhileTheExecutionRuns() {
        JobExecution execution = given.jobExecutionIn("decision-inactive", ExecutionStatus.STARTED);
        JobExecution stopped = given.move(execution, ExecutionStatus.STOPPED);
        state.assertRefusedChangingNothing(execution.jobInstanceId(), RepositoryError.EXECUTION_NOT_ACTIVE,
                () -> repository.appendFlowDecision(next(stopped.id(), CHECK, LOAD, "input")));
        state.assertRefusedChangingNothing(execution.jobInstanceId(), RepositoryError.JOB_EXECUTION_NOT_FOUND,
                () -> repository.appendFlowDecision(next(JobExecutionId.of(Long.MAX_VALUE), CHECK, LOAD, "input")));
    }

    @Test
    void aRestartFindsThePriorDecisionWithExactlyTheSameDurableInput() {
        JobExecution first = given.jobExecutionIn("decision-reuse", ExecutionStatus.STARTED);
        FlowDecision decided = tx(() -> repository.appendFlowDecision(new FlowDecisionRequest(first.id(), CHECK,
                Optional.of(REPAIR), FlowTransitionKind.DECISION, PLAN, digest("rows=17"), ExitStatus.of("REPAIR"),
                now())));
        given.move(first, ExecutionStatus.FAILED);
        JobExecution second = given.attemptIn(first.jobInstanceId(), ExecutionStatus.STARTED);
        var instance = first.jobInstanceId();

        assertEquals(Optional.of(decided), tx(() -> repository.findReusableFlowDecision(instance, CHECK, PLAN,
                digest("rows=17"), FlowTransitionKind.DECISION)));
        assertEquals(Optional.empty(), tx(() -> repository.findReusableFlowDecision(instance, CHECK, PLAN,
                digest("rows=18"), FlowTransitionKind.DECISION)), "another input is decided again");
        assertEquals(Optional.empty(), tx(() -> repository.findReusableFlowDecision(instance, CHECK,
                PlanFingerprint.of(sha("plan-v2")), digest("rows=17"), FlowTransitionKind.DECISION)), "another plan");
        assertEquals(Optional.empty(), tx(() -> repository.findReusableFlowDecision(instance, CHECK, PLAN,
                digest("rows=17"), FlowTransitionKind.NEXT)), "another kind");
        assertEquals(Optional.empty(), tx(() -> repository.findReusableFlowDecision(instance, LOAD, PLAN,
                digest("rows=17"), FlowTransitionKind.DECISION)), "another node");

        // replaying appends the same route to the restart; the latest matching decision is found next time
        FlowDecision replayed = tx(() -> repository.appendFlowDecision(new FlowDecisionRequest(second.id(), CHECK,
                decided.toNode(), decided.kind(), PLAN, decided.inputDigest(), decided.outcome(), now())));
        assertEquals(Optional.of(replayed), tx(() -> repository.findReusableFlowDecision(instance, CHECK, PLAN,
                digest("rows=17"), FlowTransitionKind.DECISION)));
    }

    private static FlowDecisionRequest next(JobExecutionId execution, NodeId from, NodeId to, String input) {
        return new FlowDecisionRequest(execution, from, Optional.of(to), FlowTransitionKind.NEXT, PLAN, digest(input),
                ExitStatus.of("COMPLETED"), now());
    }

    private static InputDigest digest(String input) {
        return InputDigest.sha256(input.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] sha(String text) {
        return digest(text).bytes();
    }
}
