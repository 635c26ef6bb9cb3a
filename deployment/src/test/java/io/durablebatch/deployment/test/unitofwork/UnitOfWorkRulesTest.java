package io.durablebatch.deployment.test.unitofwork;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertStatements;
import static io.durablebatch.deployment.test.RepositoryTestSupport.freshJobName;
import static io.durablebatch.deployment.test.RepositoryTestSupport.freshKey;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.execution.ExecutionStatus.COMPLETED;
import static io.durablebatch.execution.ExecutionStatus.FAILED;
import static io.durablebatch.execution.ExecutionStatus.STARTED;
import static io.durablebatch.execution.ExecutionStatus.STARTING;
import static io.durablebatch.execution.ExecutionStatus.STOPPING;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import jakarta.inject.Inject;
import jakarta.transaction.TransactionManager;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.durablebatch.deployment.test.RepositoryFixtures;
import io.durablebatch.deployment.test.StoredState;
import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.DefinitionIdentity;
import io.durablebatch.execution.ExecutionParameters;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstance;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobInstanceKey;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.OperationId;
import io.durablebatch.execution.PlanFingerprint;
import io.durablebatch.execution.ReasonCode;
import io.durablebatch.execution.RequestDigest;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepName;
import io.durablebatch.repository.DefinitionUpgrade;
import io.durablebatch.repository.ExecutionQuery;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.JobInstanceSelection;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.PageRequest;
import io.durablebatch.repository.RecoveryRequest;
import io.durablebatch.repository.RecoveryResolution;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.control.OperatorAction;
import io.durablebatch.repository.control.OperatorRecord;
import io.durablebatch.repository.control.OperatorRecordDraft;
import io.durablebatch.repository.control.OperatorTarget;
import io.durablebatch.repository.control.OwnerToken;
import io.durablebatch.repository.flow.FlowDecisionRequest;
import io.durablebatch.repository.flow.FlowTransitionKind;
import io.durablebatch.repository.flow.InputDigest;
import io.durablebatch.repository.flow.NodeId;
import io.durablebatch.repository.flow.StartLimit;
import io.durablebatch.repository.partition.PartitionPlanEntry;
import io.durablebatch.repository.partition.StepPartition;
import io.durablebatch.repository.retention.PurgePlan;
import io.durablebatch.repository.retention.PurgePlanRequest;
import io.durablebatch.repository.retention.RetentionAction;
import io.durablebatch.repository.retention.RetentionRecord;
import io.durablebatch.repository.retention.RetentionRecordDraft;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.QuarkusUnitTest;

/**
 * SPEC §1 unit of work: every method of every capability runs only inside an active transaction, a successful call is
 * provisional until commit, a rolled-back unit of work leaves nothing, and a unit of work sees its
 * own writes.
 */
class UnitOfWorkRulesTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp();

    private static final ActorRef ACTOR = ActorRef.of("test");
    private static final ReasonCode REASON = ReasonCode.of("AUDIT");
    private static final OwnerToken OWNER = OwnerToken.of("node-a/boot-1");
    private static final NodeId NODE = NodeId.of("load");
    private static final PlanFingerprint PLAN = PlanFingerprint.of(new byte[32]);
    private static final InputDigest INPUT = InputDigest.of(new byte[32]);
    private static final List<PartitionPlanEntry> ENTRIES = List.of(PartitionPlanEntry.of("only", new byte[0]));

    @Inject
    KernelRepository repository;

    @Inject
    RepositoryFixtures given;

    @Inject
    StoredState state;

    @Inject
    MetadataSql sql;

    @Inject
    TransactionManager transactions;

    /** Every method of the interface, so that a new method without a case below fails this test. */
    static Stream<String> everyRepositoryMethod() {
        return Arrays.stream(KernelRepository.class.getMethods()).map(UnitOfWorkRulesTest::signature).sorted();
    }

    @ParameterizedTest
    @MethodSource("everyRepositoryMethod")
    void everyMethodFailsAtOnceOutsideATransaction(String method) {
        Supplier<Case> arrange = cases().get(method);
        assertNotNull(arrange, "no case for " + method);
        Case outside = arrange.get();
        List<String> before = state.of(outside.instance());

        RepositoryException refusal = assertThrows(RepositoryException.class, outside.call());

        assertEquals(RepositoryError.TRANSACTION_REQUIRED, refusal.error(), refusal::getMessage);
        assertTrue(refusal.getMessage().contains(method.substring(0, method.indexOf('('))), refusal::getMessage);
        assertEquals(before, state.of(outside.instance()), "stored rows after the refusal");
    }

    /** A call outside any transaction, and the instance whose rows (and every table's marks) it must leave alone. */
    private record Case(JobInstanceId instance, Executable call) {
    }

    /**
     * One case per method, each arranging real rows at their current versions: without the guard the
     * call would succeed, and every call that writes would write.
     */
    private Map<String, Supplier<Case>> cases() {
        return Map.ofEntries(
                // the core (SPEC §2-5)
                Map.entry("registerDefinitionUpgrade(JobName, DefinitionUpgrade)", () -> {
                    JobInstance idle = given.newInstance("idle");
                    DefinitionUpgrade upgrade = new DefinitionUpgrade(definition(idle, "a"), definition(idle, "b"));
                    return new Case(idle.id(), () -> repository.registerDefinitionUpgrade(idle.jobName(), upgrade));
                }),
                Map.entry("selectOrCreateJobInstance(JobInstanceKey)", () -> new Case(given.newInstance("idle").id(),
                        () -> repository.selectOrCreateJobInstance(freshKey("outside")))),
                Map.entry("createJobExecution(JobExecutionRequest)", () -> {
                    JobInstance idle = given.newInstance("idle");
                    return new Case(idle.id(), () -> repository.createJobExecution(JobExecutionRequest.of(idle.id())
                            .definedBy(definition(idle, "a")).withParameters(ExecutionParameters.of(Map.of("threads", 4L)))));
                }),
                Map.entry("launchJobExecution(JobExecutionRequest, OwnerToken, Instant)", () -> {
                    JobInstance idle = given.newInstance("launched");
                    return new Case(idle.id(), () -> repository.launchJobExecution(JobExecutionRequest.of(idle.id())
                            .definedBy(definition(idle, "a")), OWNER, now()));
                }),
                Map.entry("endOwnedJobExecution(JobExecutionId, OwnerToken, LifecycleTransition)", () -> {
                    JobExecution owned = given.ownedBy(OWNER, STARTED);
                    return new Case(owned.jobInstanceId(), () -> repository.endOwnedJobExecution(owned.id(), OWNER,
                            LifecycleTransition.to(COMPLETED, now())));
                }),
                Map.entry("createStepExecution(JobExecutionId, StepName)", () -> {
                    JobExecution running = given.jobExecutionIn(STARTED);
                    return new Case(running.jobInstanceId(),
                            () -> repository.createStepExecution(running.id(), StepName.of("another")));
                }),
                Map.entry("transitionJobExecution(JobExecutionId, ExecutionVersion, LifecycleTransition)", () -> {
                    JobExecution running = given.jobExecutionIn(STARTED);
                    return new Case(running.jobInstanceId(), () -> repository.transitionJobExecution(running.id(),
                            running.version(), LifecycleTransition.to(STOPPING, now())));
                }),
                Map.entry("enrichJobExitStatus(JobExecutionId, ExecutionVersion, ExitStatus)", () -> {
                    JobExecution running = given.jobExecutionIn(STARTED);
                    return new Case(running.jobInstanceId(),
                            () -> repository.enrichJobExitStatus(running.id(), running.version(), ExitStatus.of("X")));
                }),
                Map.entry("transitionStepExecution(StepExecutionId, ExecutionVersion, LifecycleTransition)", () -> {
                    StepExecution step = given.stepExecutionIn(STARTED);
                    return new Case(step.jobInstanceId(), () -> repository.transitionStepExecution(step.id(),
                            step.version(), LifecycleTransition.progress(now(),
                                    Checkpoint.of("p".getBytes(StandardCharsets.UTF_8)), StepCounters.ZERO)));
                }),
                Map.entry("recordStepProgress(StepExecutionId, ExecutionVersion, Optional, StepCounters, Instant)", () -> {
                    StepExecution step = given.stepExecutionIn(STARTED);
                    return new Case(step.jobInstanceId(), () -> repository.recordStepProgress(step.id(),
                            step.version(), Optional.of(Checkpoint.of("p".getBytes(StandardCharsets.UTF_8))),
                            StepCounters.ZERO, now()));
                }),
                Map.entry("enrichStepExitStatus(StepExecutionId, ExecutionVersion, ExitStatus)", () -> {
                    StepExecution step = given.stepExecutionIn(STARTED);
                    return new Case(step.jobInstanceId(),
                            () -> repository.enrichStepExitStatus(step.id(), step.version(), ExitStatus.of("X")));
                }),
                Map.entry("findJobInstance(JobInstanceKey)", () -> {
                    JobInstance idle = given.newInstance("idle");
                    return new Case(idle.id(), () -> repository.findJobInstance(idle.key()));
                }),
                Map.entry("getJobInstance(JobInstanceId)", () -> {
                    JobInstance idle = given.newInstance("idle");
                    return new Case(idle.id(), () -> repository.getJobInstance(idle.id()));
                }),
                Map.entry("getJobExecution(JobExecutionId)", () -> {
                    JobExecution running = given.jobExecutionIn(STARTED);
                    return new Case(running.jobInstanceId(), () -> repository.getJobExecution(running.id()));
                }),
                Map.entry("lockJobExecutionForDecision(JobExecutionId)", () -> {
                    JobExecution running = given.jobExecutionIn(STARTED);
                    return new Case(running.jobInstanceId(), () -> repository.lockJobExecutionForDecision(running.id()));
                }),
                Map.entry("latestJobExecution(JobInstanceId)", () -> {
                    JobExecution running = given.jobExecutionIn(STARTED);
                    return new Case(running.jobInstanceId(),
                            () -> repository.latestJobExecution(running.jobInstanceId()));
                }),
                Map.entry("jobExecutions(JobInstanceId)", () -> {
                    JobExecution running = given.jobExecutionIn(STARTED);
                    return new Case(running.jobInstanceId(), () -> repository.jobExecutions(running.jobInstanceId()));
                }),
                Map.entry("getStepExecution(StepExecutionId)", () -> {
                    StepExecution step = given.stepExecutionIn(STARTED);
                    return new Case(step.jobInstanceId(), () -> repository.getStepExecution(step.id()));
                }),
                Map.entry("stepExecutions(JobExecutionId)", () -> {
                    StepExecution step = given.stepExecutionIn(STARTED);
                    return new Case(step.jobInstanceId(), () -> repository.stepExecutions(step.jobExecutionId()));
                }),
                Map.entry("stepExecutions(Collection)", () -> {
                    StepExecution step = given.stepExecutionIn(STARTED);
                    return new Case(step.jobInstanceId(), () -> repository.stepExecutions(List.of(step.jobExecutionId())));
                }),
                Map.entry("recoverJobExecution(JobExecutionId, RecoveryRequest)", () -> {
                    JobExecution running = given.jobExecutionIn(STARTED);
                    RecoveryRequest recovery = new RecoveryRequest(OperationId.of("outside-" + running.id()), ACTOR,
                            ReasonCode.of("OWNER_LOST"), RecoveryResolution.FAILED, running.version(), now());
                    return new Case(running.jobInstanceId(), () -> repository.recoverJobExecution(running.id(), recovery));
                }),
                Map.entry("recoveryDecision(JobExecutionId)", () -> {
                    JobExecution running = given.jobExecutionIn(STARTED);
                    return new Case(running.jobInstanceId(), () -> repository.recoveryDecision(running.id()));
                }),
                // flows (SPEC §6)
                Map.entry("createFlowStepExecution(JobExecutionId, StepName, NodeId, StartLimit)", () -> {
                    JobExecution running = given.jobExecutionIn(STARTED);
                    return new Case(running.jobInstanceId(), () -> repository.createFlowStepExecution(running.id(),
                            StepName.of("load"), NODE, StartLimit.of(3)));
                }),
                Map.entry("startFlowStepExecution(JobExecutionId, StepName, NodeId, StartLimit, Optional, Instant)",
                        () -> {
                            JobExecution running = given.jobExecutionIn(STARTED);
                            return new Case(running.jobInstanceId(), () -> repository.startFlowStepExecution(
                                    running.id(), StepName.of("load"), NODE, StartLimit.of(3), Optional.empty(), now()));
                        }),
                Map.entry("latestFlowStep(JobInstanceId, NodeId)", () -> {
                    JobExecution running = flowStarted();
                    return new Case(running.jobInstanceId(), () -> repository.latestFlowStep(running.jobInstanceId(), NODE));
                }),
                Map.entry("latestStepExecutionBefore(JobInstanceId, StepName, JobExecutionId)", () -> {
                    StepExecution step = given.stepExecutionIn(STARTED);
                    return new Case(step.jobInstanceId(), () -> repository.latestStepExecutionBefore(step.jobInstanceId(),
                            step.stepName(), JobExecutionId.of(Long.MAX_VALUE)));
                }),
                Map.entry("appendFlowDecision(FlowDecisionRequest)", () -> {
                    JobExecution running = given.jobExecutionIn(STARTED);
                    return new Case(running.jobInstanceId(), () -> repository.appendFlowDecision(decision(running)));
                }),
                Map.entry("findReusableFlowDecision(JobInstanceId, NodeId, PlanFingerprint, InputDigest, "
                        + "FlowTransitionKind)", () -> {
                            JobExecution decided = flowDecided();
                            return new Case(decided.jobInstanceId(), () -> repository.findReusableFlowDecision(
                                    decided.jobInstanceId(), NodeId.of("check"), PLAN, INPUT, FlowTransitionKind.NEXT));
                        }),
                Map.entry("flowDecisions(JobExecutionId)", () -> {
                    JobExecution decided = flowDecided();
                    return new Case(decided.jobInstanceId(), () -> repository.flowDecisions(decided.id()));
                }),
                // partitions (SPEC §7)
                Map.entry("createStepPartitionPlan(StepExecutionId, List)", () -> {
                    StepExecution parent = given.stepExecutionIn(STARTED);
                    return new Case(parent.jobInstanceId(),
                            () -> repository.createStepPartitionPlan(parent.id(), ENTRIES));
                }),
                Map.entry("stepPartitionPlan(StepExecutionId)", () -> {
                    StepExecution parent = planned().parent();
                    return new Case(parent.jobInstanceId(), () -> repository.stepPartitionPlan(parent.id()));
                }),
                Map.entry("restartStepPartitionPlan(StepExecutionId, StepExecutionId)", () -> {
                    Planned failed = planned();
                    given.endStep(failed.parent(), FAILED, "FAILED", StepCounters.ZERO);
                    given.move(tx(() -> repository.getJobExecution(failed.parent().jobExecutionId())).orElseThrow(),
                            FAILED);
                    JobExecution restart = given.attemptIn(failed.parent().jobInstanceId(), STARTED);
                    StepExecution target = given.stepIn(restart.id(), "partitioned", STARTED);
                    return new Case(target.jobInstanceId(),
                            () -> repository.restartStepPartitionPlan(failed.parent().id(), target.id()));
                }),
                Map.entry("assignStepPartition(StepPartitionId, ExecutionVersion, StepExecutionId)", () -> {
                    Planned planned = planned();
                    StepPartition partition = planned.partition();
                    StepExecution worker = worker(planned);
                    return new Case(worker.jobInstanceId(), () -> repository.assignStepPartition(partition.id(),
                            partition.version(), worker.id()));
                }),
                Map.entry("claimNextStepPartition(StepExecutionId, StepExecutionId)", () -> {
                    Planned planned = planned();
                    StepExecution worker = worker(planned);
                    return new Case(worker.jobInstanceId(),
                            () -> repository.claimNextStepPartition(planned.parent().id(), worker.id()));
                }),
                Map.entry("openStepPartitionPlans(Collection, int)", () -> {
                    StepExecution parent = planned().parent();
                    JobName job = tx(() -> repository.getJobInstance(parent.jobInstanceId())).orElseThrow().key().jobName();
                    return new Case(parent.jobInstanceId(), () -> repository.openStepPartitionPlans(List.of(job), 10));
                }),
                Map.entry("completeStepPartition(StepPartitionId, ExecutionVersion, StepExecutionId)", () -> {
                    Planned planned = planned();
                    StepExecution worker = worker(planned);
                    StepPartition assigned = tx(() -> repository.assignStepPartition(planned.partition().id(),
                            planned.partition().version(), worker.id()));
                    given.endStep(worker, COMPLETED, "DONE", StepCounters.ZERO);
                    return new Case(worker.jobInstanceId(), () -> repository.completeStepPartition(assigned.id(),
                            assigned.version(), worker.id()));
                }),
                Map.entry("aggregateStepPartitions(StepExecutionId, ExecutionVersion, Instant)", () -> {
                    Planned planned = planned();
                    StepExecution worker = worker(planned);
                    tx(() -> {
                        StepPartition assigned = repository.assignStepPartition(planned.partition().id(),
                                planned.partition().version(), worker.id());
                        StepExecution started = repository.transitionStepExecution(worker.id(), worker.version(),
                                LifecycleTransition.to(STARTED, now()));
                        repository.transitionStepExecution(worker.id(), started.version(),
                                LifecycleTransition.to(COMPLETED, now()));
                        return repository.completeStepPartition(assigned.id(), assigned.version(), worker.id());
                    });
                    StepExecution parent = planned.parent();
                    return new Case(parent.jobInstanceId(),
                            () -> repository.aggregateStepPartitions(parent.id(), parent.version(), now()));
                }),
                Map.entry("aggregateStepPartitions(StepExecutionId, ExecutionVersion, Instant, Optional)", () -> {
                    Planned planned = planned();
                    StepExecution worker = worker(planned);
                    tx(() -> {
                        StepPartition assigned = repository.assignStepPartition(planned.partition().id(),
                                planned.partition().version(), worker.id());
                        StepExecution started = repository.transitionStepExecution(worker.id(), worker.version(),
                                LifecycleTransition.to(STARTED, now()));
                        repository.transitionStepExecution(worker.id(), started.version(),
                                LifecycleTransition.to(COMPLETED, now()));
                        return repository.completeStepPartition(assigned.id(), assigned.version(), worker.id());
                    });
                    StepExecution parent = planned.parent();
                    return new Case(parent.jobInstanceId(),
                            () -> repository.aggregateStepPartitions(parent.id(), parent.version(), now(),
                                    Optional.of(ExitStatus.of("ANALYZED"))));
                }),
                // operator control (SPEC §8)
                Map.entry("appendOperatorRequest(OperatorRecordDraft)", () -> {
                    JobExecution running = given.jobExecutionIn(STARTED);
                    return new Case(running.jobInstanceId(), () -> repository.appendOperatorRequest(stop(running)));
                }),
                Map.entry("findOperatorRequest(OperatorAction, ActorRef, OperationId)", () -> {
                    JobExecution running = given.jobExecutionIn(STARTED);
                    OperatorRecord recorded = tx(() -> repository.appendOperatorRequest(stop(running)));
                    return new Case(running.jobInstanceId(),
                            () -> repository.findOperatorRequest(recorded.action(), recorded.actor(), recorded.operationId()));
                }),
                Map.entry("requestExecutionStop(JobExecutionId, ExecutionVersion, ActorRef, Instant)", () -> {
                    JobExecution running = given.jobExecutionIn(STARTED);
                    return new Case(running.jobInstanceId(),
                            () -> repository.requestExecutionStop(running.id(), running.version(), ACTOR, now()));
                }),
                Map.entry("claimExecutionOwner(JobExecutionId, ExecutionVersion, OwnerToken, Instant)", () -> {
                    JobExecution starting = given.jobExecutionIn(STARTING);
                    return new Case(starting.jobInstanceId(),
                            () -> repository.claimExecutionOwner(starting.id(), starting.version(), OWNER, now()));
                }),
                Map.entry("observeExecutionControl(JobExecutionId, OwnerToken, Instant)", () -> {
                    // a pending stop: the observation would move the execution to STOPPING
                    JobExecution owned = given.ownedBy(OWNER, STARTED);
                    tx(() -> repository.requestExecutionStop(owned.id(), owned.version(), ACTOR, now()));
                    return new Case(owned.jobInstanceId(),
                            () -> repository.observeExecutionControl(owned.id(), OWNER, now()));
                }),
                // listings
                Map.entry("findJobExecutions(ExecutionQuery, PageRequest)", () -> {
                    JobExecution running = given.jobExecutionIn(STARTED);
                    return new Case(running.jobInstanceId(), () -> repository.findJobExecutions(
                            ExecutionQuery.all().statuses(Set.of(STARTED)), PageRequest.first(5)));
                }),
                Map.entry("findJobInstances(JobName, PageRequest)", () -> {
                    JobInstance idle = given.newInstance("idle");
                    return new Case(idle.id(), () -> repository.findJobInstances(idle.jobName(), PageRequest.first(5)));
                }),
                Map.entry("countJobInstances(JobName)", () -> {
                    JobInstance idle = given.newInstance("idle");
                    return new Case(idle.id(), () -> repository.countJobInstances(idle.jobName()));
                }),
                Map.entry("executionOwnership(JobExecutionId)", () -> {
                    JobExecution running = given.jobExecutionIn(STARTED);
                    return new Case(running.jobInstanceId(), () -> repository.executionOwnership(running.id()));
                }),
                Map.entry("partitionedStepExecutions(JobExecutionId)", () -> {
                    StepExecution parent = planned().parent();
                    return new Case(parent.jobInstanceId(),
                            () -> repository.partitionedStepExecutions(parent.jobExecutionId()));
                }),
                Map.entry("stepPartitions(StepExecutionId, PageRequest)", () -> {
                    StepExecution parent = planned().parent();
                    return new Case(parent.jobInstanceId(),
                            () -> repository.stepPartitions(parent.id(), PageRequest.first(5)));
                }),
                Map.entry("findOperatorRecords(Optional, PageRequest)", () -> {
                    JobExecution running = given.jobExecutionIn(STARTED);
                    tx(() -> repository.appendOperatorRequest(stop(running)));
                    return new Case(running.jobInstanceId(), () -> repository.findOperatorRecords(
                            Optional.of(running.jobInstanceId()), PageRequest.first(5)));
                }),
                Map.entry("findRecoveryDecisions(Optional, PageRequest)", () -> {
                    JobExecution running = given.jobExecutionIn(STARTED);
                    return new Case(running.jobInstanceId(), () -> repository.findRecoveryDecisions(
                            Optional.of(running.jobInstanceId()), PageRequest.first(5)));
                }),
                Map.entry("findRetentionRecords(Optional, PageRequest)", () -> {
                    JobInstanceId held = held();
                    return new Case(held, () -> repository.findRetentionRecords(Optional.of(held), PageRequest.first(5)));
                }),
                Map.entry("findInstanceHolds(PageRequest)", () -> {
                    JobInstanceId held = held();
                    return new Case(held, () -> repository.findInstanceHolds(PageRequest.first(5)));
                }),
                // retention (SPEC §9)
                Map.entry("jobInstanceHold(JobInstanceId)", () -> {
                    JobInstanceId held = held();
                    return new Case(held, () -> repository.jobInstanceHold(held));
                }),
                Map.entry("placeInstanceHold(JobInstanceId, ActorRef, ReasonCode, Instant)", () -> {
                    JobInstance idle = given.newInstance("idle");
                    return new Case(idle.id(), () -> repository.placeInstanceHold(idle.id(), ACTOR, REASON, now()));
                }),
                Map.entry("releaseInstanceHold(JobInstanceId)", () -> {
                    JobInstanceId held = held();
                    return new Case(held, () -> repository.releaseInstanceHold(held));
                }),
                Map.entry("findRetentionAction(RetentionAction, ActorRef, OperationId)", () -> {
                    JobInstance idle = given.newInstance("idle");
                    RetentionRecord recorded = tx(() -> repository.appendRetentionAction(hold(idle.id())));
                    return new Case(idle.id(),
                            () -> repository.findRetentionAction(recorded.action(), recorded.actor(), recorded.operationId()));
                }),
                Map.entry("appendRetentionAction(RetentionRecordDraft)", () -> {
                    JobInstance idle = given.newInstance("idle");
                    return new Case(idle.id(), () -> repository.appendRetentionAction(hold(idle.id())));
                }),
                Map.entry("purgeSurvey(PurgePlanRequest)", () -> {
                    JobInstance finished = given.instanceWithHistory(freshJobName("purge"), 1, COMPLETED);
                    return new Case(finished.id(), () -> repository.purgeSurvey(purgeRequest(finished)));
                }),
                Map.entry("applyPurge(PurgePlan)", () -> {
                    JobInstance finished = given.instanceWithHistory(freshJobName("purge"), 1, COMPLETED);
                    PurgePlan plan = tx(() -> repository.purgeSurvey(purgeRequest(finished))).plan();
                    assertEquals(1, plan.candidates().size());
                    return new Case(finished.id(), () -> repository.applyPurge(plan));
                }));
    }

    private static DefinitionIdentity definition(JobInstance instance, String revision) {
        return new DefinitionIdentity(instance.jobName(), revision, PLAN);
    }

    private static FlowDecisionRequest decision(JobExecution execution) {
        return new FlowDecisionRequest(execution.id(), NodeId.of("check"), Optional.of(NODE), FlowTransitionKind.NEXT,
                PLAN, INPUT, ExitStatus.of("COMPLETED"), now());
    }

    /** A running execution whose flow started {@link #NODE}. */
    private JobExecution flowStarted() {
        JobExecution running = given.jobExecutionIn(STARTED);
        tx(() -> repository.createFlowStepExecution(running.id(), StepName.of("load"), NODE, StartLimit.of(3)));
        return running;
    }

    /** A running execution with one flow decision. */
    private JobExecution flowDecided() {
        JobExecution running = given.jobExecutionIn(STARTED);
        tx(() -> repository.appendFlowDecision(decision(running)));
        return running;
    }

    /** A STARTED parent step with a one-partition plan. */
    private record Planned(StepExecution parent, StepPartition partition) {
    }

    private Planned planned() {
        StepExecution parent = given.stepExecutionIn(STARTED);
        return new Planned(parent, tx(() -> repository.createStepPartitionPlan(parent.id(), ENTRIES)).get(0));
    }

    /** A new worker step, STARTING, of the parent's job execution. */
    private StepExecution worker(Planned planned) {
        return given.stepIn(planned.parent().jobExecutionId(), "worker", STARTING);
    }

    private static OperatorRecordDraft stop(JobExecution execution) {
        return new OperatorRecordDraft(OperatorAction.STOP, OperationId.of("stop-" + execution.id()), ACTOR,
                OperatorTarget.execution(execution.jobInstanceId(), execution.id()),
                RequestDigest.sha256("stop|" + execution.id()), "STOP_REQUESTED", now());
    }

    private JobInstanceId held() {
        JobInstance idle = given.newInstance("held");
        tx(() -> repository.placeInstanceHold(idle.id(), ACTOR, REASON, now()));
        return idle.id();
    }

    private static RetentionRecordDraft hold(JobInstanceId instance) {
        return new RetentionRecordDraft(RetentionAction.PLACE_HOLD, OperationId.of("hold-" + instance), ACTOR,
                Optional.of(instance), RequestDigest.sha256("hold|" + instance), "PLACED", now());
    }

    private static PurgePlanRequest purgeRequest(JobInstance finished) {
        return PurgePlanRequest.before(now().plusSeconds(60), 10).forJob(finished.jobName());
    }

    @Test
    void aTransactionMarkedForRollbackIsNotAUnitOfWorkToJoin() throws Exception {
        transactions.begin();
        try {
            transactions.setRollbackOnly();
            RepositoryException refusal = assertThrows(RepositoryException.class,
                    () -> repository.selectOrCreateJobInstance(freshKey("doomed")));
            assertEquals(RepositoryError.TRANSACTION_REQUIRED, refusal.error());
        } finally {
            transactions.rollback();
        }
    }

    @Test
    void aRolledBackUnitOfWorkLeavesNothing() throws Exception {
        JobInstance witness = given.newInstance("witness");
        List<String> before = state.of(witness.id());
        JobInstanceKey key = freshKey("rolled-back");

        transactions.begin();
        JobInstance instance;
        JobExecution execution;
        StepExecution step;
        try {
            instance = repository.selectOrCreateJobInstance(key).instance();
            execution = repository.createJobExecution(JobExecutionRequest.of(instance.id()));
            execution = repository.transitionJobExecution(execution.id(), execution.version(),
                    LifecycleTransition.to(STARTED, now()));
            step = repository.createStepExecution(execution.id(), StepName.of("step"));
            repository.transitionStepExecution(step.id(), step.version(), LifecycleTransition.to(STARTED, now()));
            assertEquals(Optional.of(instance), repository.findJobInstance(key), "the unit of work sees its writes");
        } finally {
            transactions.rollback();
        }

        JobExecution created = execution;
        assertEquals(Optional.empty(), tx(() -> repository.findJobInstance(key)));
        assertEquals(Optional.empty(), tx(() -> repository.getJobInstance(instance.id())));
        assertEquals(Optional.empty(), tx(() -> repository.getJobExecution(created.id())));
        assertEquals(Optional.empty(), tx(() -> repository.getStepExecution(step.id())));
        assertEquals(before, state.of(witness.id()), "no table kept a row");
    }

    @Test
    void aUnitOfWorkThatEndsByAnExceptionRollsBack() {
        JobInstanceKey key = freshKey("thrown");
        assertThrows(IllegalStateException.class, () -> QuarkusTransaction.requiringNew().run(() -> {
            JobInstance instance = repository.selectOrCreateJobInstance(key).instance();
            repository.createJobExecution(JobExecutionRequest.of(instance.id()));
            throw new IllegalStateException("the application failed");
        }));
        assertEquals(Optional.empty(), tx(() -> repository.findJobInstance(key)));
    }

    @Test
    void aCallIsProvisionalUntilItsUnitOfWorkCommits() {
        JobInstanceKey key = freshKey("provisional");
        JobInstance created = tx(() -> {
            JobInstance instance = repository.selectOrCreateJobInstance(key).instance();
            // Another unit of work (the outer one is suspended meanwhile) does not see it yet.
            assertEquals(Optional.empty(), tx(() -> repository.findJobInstance(key)));
            return instance;
        });
        assertEquals(Optional.of(created), tx(() -> repository.findJobInstance(key)));
    }

    @Test
    void selectOrCreateTwiceInOneUnitOfWorkReturnsTheSameInstance() {
        JobInstanceKey key = freshKey("same-unit");
        List<JobInstanceSelection> selections = tx(() -> {
            List<JobInstanceSelection> both = new ArrayList<>();
            both.add(assertStatements(sql, 1, () -> repository.selectOrCreateJobInstance(key)));
            // An existing instance costs the insert that found the conflict and the read of the winner.
            both.add(assertStatements(sql, 2, () -> repository.selectOrCreateJobInstance(key)));
            return both;
        });
        assertTrue(selections.get(0).created());
        assertFalse(selections.get(1).created());
        assertEquals(selections.get(0).instance(), selections.get(1).instance());
        assertEquals(Optional.of(selections.get(0).instance()), tx(() -> repository.findJobInstance(key)));
    }

    private static String signature(Method method) {
        return method.getName() + Arrays.stream(method.getParameterTypes()).map(Class::getSimpleName)
                .collect(Collectors.joining(", ", "(", ")"));
    }
}
