package io.durablebatch.deployment.test.retention;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertRefused;
import static io.durablebatch.deployment.test.RepositoryTestSupport.freshJobName;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryFixtures;
import io.durablebatch.deployment.test.StoredState;
import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobInstance;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.OperationId;
import io.durablebatch.execution.PlanFingerprint;
import io.durablebatch.execution.ReasonCode;
import io.durablebatch.execution.RequestDigest;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepName;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.RecoveryRequest;
import io.durablebatch.repository.RecoveryResolution;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.control.OperatorAction;
import io.durablebatch.repository.control.OperatorRecordDraft;
import io.durablebatch.repository.control.OperatorTarget;
import io.durablebatch.repository.flow.FlowDecisionRequest;
import io.durablebatch.repository.flow.FlowTransitionKind;
import io.durablebatch.repository.flow.InputDigest;
import io.durablebatch.repository.flow.NodeId;
import io.durablebatch.repository.flow.StartLimit;
import io.durablebatch.repository.partition.PartitionPlanEntry;
import io.durablebatch.repository.partition.StepPartition;
import io.durablebatch.repository.retention.PurgeCandidate;
import io.durablebatch.repository.retention.PurgeCounts;
import io.durablebatch.repository.retention.PurgePlan;
import io.durablebatch.repository.retention.PurgePlanRequest;
import io.durablebatch.repository.retention.PurgeSurvey;
import io.durablebatch.repository.retention.RetentionAction;
import io.durablebatch.repository.retention.RetentionRecordDraft;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.retention.PurgeStore;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.QuarkusUnitTest;

/**
 * SPEC 9: applying a plan re-validates every candidate and deletes the batch, children first, in a
 * fixed number of set-based statements, or deletes nothing at all when any candidate changed.
 */
class PurgeApplyTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp();

    private static final NodeId LOAD = NodeId.of("load");

    @Inject
    KernelRepository repository;

    @Inject
    RepositoryFixtures given;

    @Inject
    MetadataSql sql;

    @Inject
    StoredState state;

    @Test
    void deletesTheBatchChildrenFirstAndCountsEachTable() {
        JobName job = freshJobName("purge");
        List<JobInstanceId> batch = instances(job, 3);
        PurgePlan plan = survey(job).plan();
        JobInstance bystander = given.instanceWithHistory(freshJobName("purge-bystander"), 3, ExecutionStatus.COMPLETED);
        Map<String, Long> bystanderRows = state.rowCounts(List.of(bystander.id()));

        PurgeCounts counts = tx(() -> repository.applyPurge(plan));

        assertEquals(List.of("step_partition", "step_partition_plan", "flow_decision", "flow_decision_head", "flow_node",
                "step_execution", "job_execution", "job_instance"), List.copyOf(counts.deletedRows().keySet()));
        assertEquals(Map.of("step_partition", 0L, "step_partition_plan", 0L, "flow_decision", 0L, "flow_decision_head", 0L,
                "flow_node", 0L, "step_execution", 18L, "job_execution", 6L, "job_instance", 3L), counts.deletedRows());
        assertEquals(3, counts.jobInstances());
        assertEquals(Map.of(), state.rowCounts(batch), "no row names a purged instance");
        assertEquals(bystanderRows, state.rowCounts(List.of(bystander.id())));
        assertTrue(tx(() -> repository.getJobInstance(batch.get(0))).isEmpty());
    }

    @Test
    void deletesTheFlowsAndPartitionsOfTheBatchKeepsItsAuditsAndTouchesNothingElse() {
        JobName job = freshJobName("purge-flows");
        List<JobInstanceId> batch = List.of(withFlowsAndPartitions(job), withFlowsAndPartitions(job));
        PurgePlan plan = survey(job).plan();
        // created last, so the purge cannot lower the highest id of any table either
        JobInstanceId bystander = withFlowsAndPartitions(freshJobName("purge-flows-bystander"));
        List<String> bystanderRows = state.rowsNaming(List.of(bystander));
        Map<String, Long> stored = state.rowCounts(batch);

        PurgeCounts counts = tx(() -> repository.applyPurge(plan));

        // per instance: 3 partitions of 1 plan; a decision, a sequence head and a flow step in each of 2
        // executions, with 1 start counter; a parent and a worker step in the first
        Map<String, Long> owned = Map.of("step_partition", 3L, "step_partition_plan", 1L, "flow_decision", 2L,
                "flow_decision_head", 2L, "flow_node", 1L, "step_execution", 4L, "job_execution", 2L, "job_instance", 1L);
        Map<String, Long> audits = Map.of("recovery_decision", 1L, "operator_request", 1L, "retention_action", 2L);
        Map<String, Long> everything = new HashMap<>(owned);
        everything.putAll(audits);
        assertEquals(twice(owned), counts.deletedRows());
        assertEquals(twice(everything), stored, "what the batch held before the purge");
        assertEquals(twice(audits), state.rowCounts(batch), "the audits outlive what they describe");
        assertEquals(bystanderRows, state.rowsNaming(List.of(bystander)));
        assertEquals(everything, state.rowCounts(List.of(bystander)));
    }

    @Test
    void applyingCostsTheSameStatementsForOneInstanceAsForFifty() {
        JobName small = freshJobName("purge-small");
        JobName large = freshJobName("purge-large");
        instances(small, 1);
        instances(large, 50);
        PurgePlan one = survey(small).plan();
        PurgePlan fifty = survey(large).plan();

        long forOne = statementsOf(one);
        long forFifty = statementsOf(fifty);

        // lock the instances, re-validate them, then one DELETE per owned table
        assertEquals(2 + PurgeStore.OWNED_ROWS.size(), forOne);
        assertEquals(forOne, forFifty);
    }

    @Test
    void anEmptyPlanDeletesNothingAndIssuesNoStatement() {
        PurgeCounts counts = QuarkusTransaction.requiringNew().call(() -> {
            long statements = sql.statementsExecutedOnThisThread();
            PurgeCounts applied = repository.applyPurge(new PurgePlan(List.of()));
            assertEquals(0, sql.statementsExecutedOnThisThread() - statements);
            return applied;
        });

        assertEquals(0, counts.total());
    }

    @Test
    void auditRowsOutliveWhatTheyDescribe() {
        JobName job = freshJobName("purge-audit");
        JobInstance instance = given.instanceWithHistory(job, 1, ExecutionStatus.FAILED);
        JobExecution failed = tx(() -> repository.latestJobExecution(instance.id())).orElseThrow();
        JobExecution restarted = tx(() -> {
            JobExecution created = repository.createJobExecution(JobExecutionRequest.of(instance.id()));
            return repository.transitionJobExecution(created.id(), created.version(),
                    LifecycleTransition.to(ExecutionStatus.STARTED, now()));
        });
        OperationId recovery = OperationId.of("recover-" + restarted.id());
        tx(() -> repository.recoverJobExecution(restarted.id(), new RecoveryRequest(recovery, ActorRef.of("ops"),
                ReasonCode.of("OWNER_LOST"), RecoveryResolution.ABANDONED, restarted.version(), now())));
        OperationId restart = OperationId.of("restart-" + restarted.id());
        tx(() -> repository.appendOperatorRequest(new OperatorRecordDraft(OperatorAction.RESTART, restart,
                ActorRef.of("ops"), OperatorTarget.execution(instance.id(), restarted.id()),
                RequestDigest.sha256("restart|" + failed.id()), "RESTARTED", now())));
        OperationId purge = OperationId.of("purge-" + instance.id());

        PurgeCounts counts = tx(() -> {
            PurgeCounts applied = repository.applyPurge(survey(job).plan());
            repository.appendRetentionAction(new RetentionRecordDraft(RetentionAction.PURGE, purge,
                    ActorRef.of("system:retention"), Optional.empty(), RequestDigest.sha256("purge|" + job),
                    "PURGED " + applied.jobInstances(), now()));
            return applied;
        });

        assertEquals(1, counts.jobInstances());
        assertTrue(tx(() -> repository.getJobExecution(restarted.id())).isEmpty());
        assertEquals(RecoveryResolution.ABANDONED, tx(() -> repository.recoveryDecision(restarted.id())).orElseThrow()
                .resolution());
        assertEquals(restarted.id(),
                tx(() -> repository.findOperatorRequest(OperatorAction.RESTART, ActorRef.of("ops"), restart))
                        .orElseThrow().target().jobExecutionId().orElseThrow());
        assertEquals("PURGED 1",
                tx(() -> repository.findRetentionAction(RetentionAction.PURGE, ActorRef.of("system:retention"), purge))
                        .orElseThrow()
                        .outcome());
    }

    @Test
    void aHoldPlacedAfterTheSurveyMakesThePlanStaleAndDeletesNothing() {
        JobName job = freshJobName("purge-stale");
        List<JobInstanceId> batch = instances(job, 4);
        PurgePlan plan = survey(job).plan();
        tx(() -> repository.placeInstanceHold(batch.get(2), ActorRef.of("legal"), ReasonCode.of("LITIGATION"), now()));

        assertStaleAndUnchanged(plan, batch, "is held");
    }

    @Test
    void aNewExecutionAfterTheSurveyMakesThePlanStaleAndDeletesNothing() {
        JobName job = freshJobName("purge-stale");
        List<JobInstanceId> batch = new ArrayList<>(instances(job, 2));
        JobInstance failed = given.instanceWithHistory(job, 1, ExecutionStatus.FAILED);
        batch.add(failed.id());
        PurgePlan plan = survey(job).plan();
        tx(() -> repository.createJobExecution(JobExecutionRequest.of(failed.id())));

        assertStaleAndUnchanged(plan, batch, "job instance " + failed.id());
    }

    @Test
    void aMovedVersionAfterTheSurveyMakesThePlanStaleAndDeletesNothing() {
        JobName job = freshJobName("purge-stale");
        JobInstance failed = given.instanceWithHistory(job, 1, ExecutionStatus.FAILED);
        JobInstance completed = given.instanceWithHistory(job, 1, ExecutionStatus.COMPLETED);
        PurgePlan plan = survey(job).plan();
        JobExecution execution = tx(() -> repository.latestJobExecution(completed.id())).orElseThrow();
        tx(() -> repository.enrichJobExitStatus(execution.id(), execution.version(), ExitStatus.of("ARCHIVED")));

        assertStaleAndUnchanged(plan, List.of(failed.id(), completed.id()), "job instance " + completed.id());
    }

    @Test
    void anAbandonedRestartAfterTheSurveyMakesThePlanStale() {
        JobName job = freshJobName("purge-stale");
        JobInstance failed = given.instanceWithHistory(job, 1, ExecutionStatus.FAILED);
        PurgePlan plan = survey(job).plan();
        JobExecution execution = tx(() -> repository.latestJobExecution(failed.id())).orElseThrow();
        tx(() -> repository.transitionJobExecution(execution.id(), execution.version(),
                LifecycleTransition.to(ExecutionStatus.ABANDONED, now())));

        assertStaleAndUnchanged(plan, List.of(failed.id()), "job instance " + failed.id());
    }

    @Test
    void aPlanAlreadyAppliedIsStale() {
        JobName job = freshJobName("purge-stale");
        List<JobInstanceId> batch = instances(job, 2);
        PurgePlan plan = survey(job).plan();
        tx(() -> repository.applyPurge(plan));

        assertRefused(RepositoryError.RETENTION_PLAN_STALE, () -> repository.applyPurge(plan));

        assertEquals(Map.of(), state.rowCounts(batch));
    }

    @Test
    void aHandMadePlanCannotPurgeARunningInstance() {
        JobName job = freshJobName("purge-forged");
        JobInstance running = given.instanceWithHistory(job, 1, ExecutionStatus.STARTED);
        JobExecution execution = tx(() -> repository.latestJobExecution(running.id())).orElseThrow();
        // what a survey would have observed, had it listed the instance
        PurgePlan handMade = new PurgePlan(List.of(new PurgeCandidate(running.id(), job, 1,
                ExecutionVersion.of(execution.version().value() + 1), Optional.of(ExecutionStatus.STARTED),
                Optional.empty())));

        assertStaleAndUnchanged(handMade, List.of(running.id()), "active or UNKNOWN");
    }

    private void assertStaleAndUnchanged(PurgePlan plan, List<JobInstanceId> batch, String reason) {
        List<String> before = state.of(batch);

        RepositoryException refusal = assertRefused(RepositoryError.RETENTION_PLAN_STALE, () -> repository.applyPurge(plan));

        assertTrue(refusal.getMessage().contains(reason), refusal::getMessage);
        assertEquals(before, state.of(batch));
    }

    private long statementsOf(PurgePlan plan) {
        return QuarkusTransaction.requiringNew().call(() -> {
            long statements = sql.statementsExecutedOnThisThread();
            PurgeCounts counts = repository.applyPurge(plan);
            assertEquals(plan.candidates().size(), counts.jobInstances());
            return sql.statementsExecutedOnThisThread() - statements;
        });
    }

    /**
     * An instance of {@code job} whose first execution ran a flow step, appended a decision and ran a
     * partition plan before it FAILED, and whose restart ran the flow step again before its owner was
     * lost and recovery failed it; with an operator request, and a hold placed and released, audited.
     */
    private JobInstanceId withFlowsAndPartitions(JobName job) {
        JobInstanceId instance = given.instanceWithHistory(job, 0).id();
        JobExecution first = given.attemptIn(instance, ExecutionStatus.STARTED);
        StepExecution load = runFlowStep(first);
        given.endStep(load, ExecutionStatus.COMPLETED, "LOADED", StepCounters.ZERO);
        StepExecution parent = given.stepIn(first.id(), "partitioned", ExecutionStatus.STARTED);
        List<StepPartition> partitions = tx(() -> repository.createStepPartitionPlan(parent.id(), List.of(
                PartitionPlanEntry.of("a", new byte[0]), PartitionPlanEntry.of("b", new byte[0]),
                PartitionPlanEntry.of("c", new byte[0]))));
        StepExecution worker = given.stepIn(first.id(), "worker", ExecutionStatus.STARTED);
        StepPartition assigned = tx(() -> repository.assignStepPartition(partitions.get(0).id(),
                partitions.get(0).version(), worker.id()));
        given.endStep(worker, ExecutionStatus.FAILED, "BAD_ROWS", StepCounters.ZERO);
        tx(() -> repository.completeStepPartition(assigned.id(), assigned.version(), worker.id()));
        given.endStep(parent, ExecutionStatus.FAILED, "FAILED", StepCounters.ZERO);
        given.move(first, ExecutionStatus.FAILED);

        JobExecution second = given.attemptIn(instance, ExecutionStatus.STARTED);
        runFlowStep(second);
        tx(() -> repository.recoverJobExecution(second.id(), new RecoveryRequest(OperationId.of("recover-"
                + second.id()), ActorRef.of("ops"), ReasonCode.of("OWNER_LOST"), RecoveryResolution.FAILED,
                second.version(), now())));
        tx(() -> repository.appendOperatorRequest(new OperatorRecordDraft(OperatorAction.RESTART,
                OperationId.of("restart-" + second.id()), ActorRef.of("ops"),
                OperatorTarget.execution(instance, second.id()), RequestDigest.sha256("restart|" + first.id()),
                "RESTARTED", now())));
        for (RetentionAction action : List.of(RetentionAction.PLACE_HOLD, RetentionAction.RELEASE_HOLD)) {
            tx(() -> {
                if (action == RetentionAction.PLACE_HOLD) {
                    repository.placeInstanceHold(instance, ActorRef.of("legal"), ReasonCode.of("AUDIT"), now());
                } else {
                    repository.releaseInstanceHold(instance);
                }
                return repository.appendRetentionAction(new RetentionRecordDraft(action, OperationId.of(action + "-"
                        + instance), ActorRef.of("legal"), Optional.of(instance), RequestDigest.sha256(
                                action + "|"
                                        + instance),
                        "DONE", now()));
            });
        }
        return instance;
    }

    /** Decides the route to the load node, then starts it: a decision, a sequence head and a start counter. */
    private StepExecution runFlowStep(JobExecution execution) {
        return tx(() -> {
            repository.appendFlowDecision(new FlowDecisionRequest(execution.id(), NodeId.of("check"),
                    Optional.of(LOAD), FlowTransitionKind.NEXT, PlanFingerprint.of(new byte[32]),
                    InputDigest.of(new byte[32]), ExitStatus.of("COMPLETED"), now()));
            return repository.createFlowStepExecution(execution.id(), StepName.of("load"), LOAD, StartLimit.of(5));
        });
    }

    private static Map<String, Long> twice(Map<String, Long> counts) {
        Map<String, Long> doubled = new HashMap<>();
        counts.forEach((table, rows) -> doubled.put(table, 2 * rows));
        return doubled;
    }

    private List<JobInstanceId> instances(JobName job, int count) {
        List<JobInstanceId> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ids.add(given.instanceWithHistory(job, 3, ExecutionStatus.FAILED, ExecutionStatus.COMPLETED).id());
        }
        return ids;
    }

    private PurgeSurvey survey(JobName job) {
        return tx(() -> repository.purgeSurvey(PurgePlanRequest.before(now().plus(Duration.ofMinutes(1)), 100)
                .forJob(job)));
    }
}
