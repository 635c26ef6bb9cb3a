package io.durablebatch.runtime.repository;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.durablebatch.Checks;
import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.ExecutionVersion;
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
import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.execution.StepName;
import io.durablebatch.repository.DefinitionUpgrade;
import io.durablebatch.repository.ExecutionQuery;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.JobInstanceSelection;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.Page;
import io.durablebatch.repository.PageRequest;
import io.durablebatch.repository.RecoveryDecision;
import io.durablebatch.repository.RecoveryRequest;
import io.durablebatch.repository.RecoveryResult;
import io.durablebatch.repository.StepProgress;
import io.durablebatch.repository.control.ExecutionControl;
import io.durablebatch.repository.control.ExecutionOwnership;
import io.durablebatch.repository.control.OperatorAction;
import io.durablebatch.repository.control.OperatorRecord;
import io.durablebatch.repository.control.OperatorRecordDraft;
import io.durablebatch.repository.control.OwnerToken;
import io.durablebatch.repository.flow.FlowDecision;
import io.durablebatch.repository.flow.FlowDecisionRequest;
import io.durablebatch.repository.flow.FlowStepState;
import io.durablebatch.repository.flow.FlowTransitionKind;
import io.durablebatch.repository.flow.InputDigest;
import io.durablebatch.repository.flow.NodeId;
import io.durablebatch.repository.flow.StartLimit;
import io.durablebatch.repository.partition.OpenPartitionPlan;
import io.durablebatch.repository.partition.PartitionPlanEntry;
import io.durablebatch.repository.partition.StepPartition;
import io.durablebatch.repository.partition.StepPartitionId;
import io.durablebatch.repository.retention.PurgeCounts;
import io.durablebatch.repository.retention.PurgePlan;
import io.durablebatch.repository.retention.PurgePlanRequest;
import io.durablebatch.repository.retention.PurgeSurvey;
import io.durablebatch.repository.retention.RetentionAction;
import io.durablebatch.repository.retention.RetentionHold;
import io.durablebatch.repository.retention.RetentionRecord;
import io.durablebatch.repository.retention.RetentionRecordDraft;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.flow.FlowDecisionStore;
import io.durablebatch.runtime.flow.FlowStore;
import io.durablebatch.runtime.operator.ExecutionControlStore;
import io.durablebatch.runtime.operator.OperatorAuditStore;
import io.durablebatch.runtime.partition.PartitionAggregationStore;
import io.durablebatch.runtime.partition.PartitionAssignmentStore;
import io.durablebatch.runtime.partition.PartitionStore;
import io.durablebatch.runtime.retention.PurgeStore;
import io.durablebatch.runtime.retention.RetentionAuditStore;
import io.durablebatch.runtime.retention.RetentionHoldStore;

/**
 * The PostgreSQL job repository. Each call is checked once by {@link RepositoryCallInterceptor} (no
 * null argument, an active transaction), then handed to the store of its capability; the stores
 * hold the SQL.
 */
@ApplicationScoped
@RepositoryCall
public class PostgresJobRepository implements KernelRepository {

    // the core: instances, executions, steps, definitions, recovery
    private final JobInstanceStore instances;
    private final JobExecutionStore jobExecutions;
    private final JobExecutionListing executionListing;
    private final StepExecutionStore stepExecutions;
    private final DefinitionUpgradeStore upgrades;
    private final RecoveryStore recoveries;
    // flows
    private final FlowStore flows;
    private final FlowDecisionStore flowDecisions;
    // partitions
    private final PartitionStore partitionPlans;
    private final PartitionAssignmentStore partitionAssignments;
    private final PartitionAggregationStore partitionAggregation;
    // operator control
    private final OperatorAuditStore operatorAudit;
    private final ExecutionControlStore executionControl;
    // retention
    private final RetentionHoldStore holds;
    private final RetentionAuditStore retentionAudit;
    private final PurgeStore purges;

    PostgresJobRepository(JobInstanceStore instances, JobExecutionStore jobExecutions,
            JobExecutionListing executionListing, StepExecutionStore stepExecutions,
            DefinitionUpgradeStore upgrades, RecoveryStore recoveries,
            FlowStore flows, FlowDecisionStore flowDecisions,
            PartitionStore partitionPlans, PartitionAssignmentStore partitionAssignments,
            PartitionAggregationStore partitionAggregation,
            OperatorAuditStore operatorAudit, ExecutionControlStore executionControl,
            RetentionHoldStore holds, RetentionAuditStore retentionAudit, PurgeStore purges) {
        this.instances = instances;
        this.jobExecutions = jobExecutions;
        this.executionListing = executionListing;
        this.stepExecutions = stepExecutions;
        this.upgrades = upgrades;
        this.recoveries = recoveries;
        this.flows = flows;
        this.flowDecisions = flowDecisions;
        this.partitionPlans = partitionPlans;
        this.partitionAssignments = partitionAssignments;
        this.partitionAggregation = partitionAggregation;
        this.operatorAudit = operatorAudit;
        this.executionControl = executionControl;
        this.holds = holds;
        this.retentionAudit = retentionAudit;
        this.purges = purges;
    }

    @Override
    public void registerDefinitionUpgrade(JobName jobName, DefinitionUpgrade upgrade) {
        upgrades.register(jobName, upgrade);
    }

    @Override
    public JobInstanceSelection selectOrCreateJobInstance(JobInstanceKey key) {
        return instances.selectOrCreate(key);
    }

    @Override
    public JobExecution createJobExecution(JobExecutionRequest request) {
        return jobExecutions.create(request.jobInstanceId(), request.definition(), request.parameters());
    }

    @Override
    public JobExecution launchJobExecution(JobExecutionRequest request, OwnerToken owner, Instant launchedAt) {
        return jobExecutions.launch(request.jobInstanceId(), request.definition(), request.parameters(), owner,
                launchedAt);
    }

    @Override
    public JobExecution endOwnedJobExecution(JobExecutionId id, OwnerToken owner, LifecycleTransition end) {
        return executionControl.endOwned(id, owner, end);
    }

    @Override
    public StepExecution createStepExecution(JobExecutionId jobExecutionId, StepName stepName) {
        return stepExecutions.create(jobExecutionId, stepName);
    }

    @Override
    public JobExecution transitionJobExecution(JobExecutionId id, ExecutionVersion expectedVersion,
            LifecycleTransition transition) {
        return jobExecutions.transition(id, expectedVersion, transition);
    }

    @Override
    public JobExecution enrichJobExitStatus(JobExecutionId id, ExecutionVersion expectedVersion, ExitStatus exitStatus) {
        return jobExecutions.enrichExitStatus(id, expectedVersion, exitStatus);
    }

    @Override
    public StepExecution transitionStepExecution(StepExecutionId id, ExecutionVersion expectedVersion,
            LifecycleTransition transition) {
        return stepExecutions.transition(id, expectedVersion, transition);
    }

    @Override
    public StepProgress recordStepProgress(StepExecutionId id, ExecutionVersion expectedVersion,
            Optional<Checkpoint> checkpoint, StepCounters counters, Instant at) {
        return stepExecutions.recordProgress(id, expectedVersion, checkpoint, counters, at);
    }

    @Override
    public StepExecution enrichStepExitStatus(StepExecutionId id, ExecutionVersion expectedVersion,
            ExitStatus exitStatus) {
        return stepExecutions.enrichExitStatus(id, expectedVersion, exitStatus);
    }

    @Override
    public Optional<JobInstance> findJobInstance(JobInstanceKey key) {
        return instances.find(key);
    }

    @Override
    public Optional<JobInstance> getJobInstance(JobInstanceId id) {
        return instances.get(id);
    }

    @Override
    public Optional<JobExecution> getJobExecution(JobExecutionId id) {
        return jobExecutions.get(id);
    }

    @Override
    public Optional<JobExecution> lockJobExecutionForDecision(JobExecutionId id) {
        return jobExecutions.lockForDecision(id);
    }

    @Override
    public Optional<JobExecution> latestJobExecution(JobInstanceId jobInstanceId) {
        return jobExecutions.latest(jobInstanceId);
    }

    @Override
    public List<JobExecution> jobExecutions(JobInstanceId jobInstanceId) {
        return jobExecutions.ofInstance(jobInstanceId);
    }

    @Override
    public Optional<StepExecution> getStepExecution(StepExecutionId id) {
        return stepExecutions.get(id);
    }

    @Override
    public List<StepExecution> stepExecutions(JobExecutionId jobExecutionId) {
        return stepExecutions.ofJobExecution(jobExecutionId);
    }

    @Override
    public Map<JobExecutionId, List<StepExecution>> stepExecutions(Collection<JobExecutionId> jobExecutionIds) {
        jobExecutionIds.forEach(id -> Checks.notNull(id, "jobExecutionIds[]"));
        if (jobExecutionIds.size() > PageRequest.MAX_SIZE) {
            throw new IllegalArgumentException("jobExecutionIds must name at most " + PageRequest.MAX_SIZE
                    + " executions, got " + jobExecutionIds.size());
        }
        return jobExecutionIds.isEmpty() ? Map.of() : stepExecutions.ofJobExecutions(jobExecutionIds);
    }

    @Override
    public RecoveryResult recoverJobExecution(JobExecutionId id, RecoveryRequest request) {
        return recoveries.recover(id, request);
    }

    @Override
    public Optional<RecoveryDecision> recoveryDecision(JobExecutionId id) {
        return recoveries.decision(id);
    }

    @Override
    public StepExecution createFlowStepExecution(JobExecutionId jobExecutionId, StepName stepName, NodeId nodeId,
            StartLimit startLimit) {
        return flows.start(jobExecutionId, stepName, nodeId, startLimit);
    }

    @Override
    public StepExecution startFlowStepExecution(JobExecutionId jobExecutionId, StepName stepName, NodeId nodeId,
            StartLimit startLimit, Optional<Checkpoint> resumeFrom, Instant startedAt) {
        return flows.startRunning(jobExecutionId, stepName, nodeId, startLimit, resumeFrom, startedAt);
    }

    @Override
    public Optional<FlowStepState> latestFlowStep(JobInstanceId jobInstanceId, NodeId nodeId) {
        return flows.latest(jobInstanceId, nodeId);
    }

    @Override
    public Optional<StepExecution> latestStepExecutionBefore(JobInstanceId jobInstanceId, StepName stepName,
            JobExecutionId current) {
        return stepExecutions.latestBefore(jobInstanceId, stepName, current);
    }

    @Override
    public FlowDecision appendFlowDecision(FlowDecisionRequest request) {
        return flowDecisions.append(request);
    }

    @Override
    public Optional<FlowDecision> findReusableFlowDecision(JobInstanceId jobInstanceId, NodeId nodeId,
            PlanFingerprint planFingerprint, InputDigest inputDigest, FlowTransitionKind kind) {
        return flowDecisions.findReusable(jobInstanceId, nodeId, planFingerprint, inputDigest, kind);
    }

    @Override
    public List<FlowDecision> flowDecisions(JobExecutionId jobExecutionId) {
        return flowDecisions.ofJobExecution(jobExecutionId);
    }

    @Override
    public List<StepPartition> createStepPartitionPlan(StepExecutionId parentStepExecutionId,
            List<PartitionPlanEntry> entries) {
        for (int i = 0; i < entries.size(); i++) {
            Checks.notNull(entries.get(i), "entries[" + i + "]");
        }
        return partitionPlans.create(parentStepExecutionId, entries);
    }

    @Override
    public List<StepPartition> stepPartitionPlan(StepExecutionId parentStepExecutionId) {
        return partitionPlans.plan(parentStepExecutionId);
    }

    @Override
    public Page<JobExecution> findJobExecutions(ExecutionQuery query, PageRequest page) {
        return executionListing.page(query, page);
    }

    @Override
    public Page<JobInstance> findJobInstances(JobName job, PageRequest page) {
        return instances.page(job, page);
    }

    @Override
    public long countJobInstances(JobName job) {
        return instances.count(job);
    }

    @Override
    public Optional<ExecutionOwnership> executionOwnership(JobExecutionId id) {
        return executionControl.ownership(id);
    }

    @Override
    public List<StepExecutionId> partitionedStepExecutions(JobExecutionId jobExecutionId) {
        return partitionPlans.parentsIn(jobExecutionId);
    }

    @Override
    public Page<StepPartition> stepPartitions(StepExecutionId parentStepExecutionId, PageRequest page) {
        return partitionPlans.page(parentStepExecutionId, page);
    }

    @Override
    public Page<OperatorRecord> findOperatorRecords(Optional<JobInstanceId> instance, PageRequest page) {
        return operatorAudit.page(instance, page);
    }

    @Override
    public Page<RecoveryDecision> findRecoveryDecisions(Optional<JobInstanceId> instance, PageRequest page) {
        return recoveries.page(instance, page);
    }

    @Override
    public Page<RetentionRecord> findRetentionRecords(Optional<JobInstanceId> instance, PageRequest page) {
        return retentionAudit.page(instance, page);
    }

    @Override
    public Page<RetentionHold> findInstanceHolds(PageRequest page) {
        return holds.page(page);
    }

    @Override
    public List<StepPartition> restartStepPartitionPlan(StepExecutionId sourceStepExecutionId,
            StepExecutionId targetStepExecutionId) {
        return partitionPlans.restart(sourceStepExecutionId, targetStepExecutionId);
    }

    @Override
    public StepPartition assignStepPartition(StepPartitionId id, ExecutionVersion expectedVersion,
            StepExecutionId workerStepExecutionId) {
        return partitionAssignments.assign(id, expectedVersion, workerStepExecutionId);
    }

    @Override
    public Optional<StepPartition> claimNextStepPartition(StepExecutionId parentStepExecutionId,
            StepExecutionId workerStepExecutionId) {
        return partitionAssignments.claim(parentStepExecutionId, workerStepExecutionId);
    }

    @Override
    public List<OpenPartitionPlan> openStepPartitionPlans(Collection<JobName> jobNames, int limit) {
        jobNames.forEach(name -> Checks.notNull(name, "jobNames[]"));
        if (limit < 1 || limit > MAX_OPEN_PLANS) {
            throw new IllegalArgumentException("limit must be between 1 and " + MAX_OPEN_PLANS + ", got " + limit);
        }
        return jobNames.isEmpty() ? List.of() : partitionPlans.open(jobNames, limit);
    }

    @Override
    public StepPartition completeStepPartition(StepPartitionId id, ExecutionVersion expectedVersion,
            StepExecutionId workerStepExecutionId) {
        return partitionAssignments.complete(id, expectedVersion, workerStepExecutionId);
    }

    @Override
    public StepExecution aggregateStepPartitions(StepExecutionId parentStepExecutionId,
            ExecutionVersion expectedVersion, Instant transitionedAt, Optional<ExitStatus> exitStatus) {
        return partitionAggregation.aggregate(parentStepExecutionId, expectedVersion, transitionedAt, exitStatus);
    }

    @Override
    public OperatorRecord appendOperatorRequest(OperatorRecordDraft draft) {
        return operatorAudit.append(draft);
    }

    @Override
    public Optional<OperatorRecord> findOperatorRequest(OperatorAction action, ActorRef actor,
            OperationId operationId) {
        return operatorAudit.find(action, actor, operationId);
    }

    @Override
    public JobExecution requestExecutionStop(JobExecutionId id, ExecutionVersion expectedVersion, ActorRef actor,
            Instant requestedAt) {
        return executionControl.requestStop(id, expectedVersion, actor, requestedAt);
    }

    @Override
    public JobExecution claimExecutionOwner(JobExecutionId id, ExecutionVersion expectedVersion, OwnerToken owner,
            Instant claimedAt) {
        return executionControl.claimOwner(id, expectedVersion, owner, claimedAt);
    }

    @Override
    public ExecutionControl observeExecutionControl(JobExecutionId id, OwnerToken owner, Instant observedAt) {
        return executionControl.observe(id, owner, observedAt);
    }

    @Override
    public Optional<RetentionHold> jobInstanceHold(JobInstanceId id) {
        return holds.hold(id);
    }

    @Override
    public RetentionHold placeInstanceHold(JobInstanceId id, ActorRef actor, ReasonCode reason, Instant placedAt) {
        return holds.place(id, actor, reason, placedAt);
    }

    @Override
    public Optional<RetentionHold> releaseInstanceHold(JobInstanceId id) {
        return holds.release(id);
    }

    @Override
    public Optional<RetentionRecord> findRetentionAction(RetentionAction action, ActorRef actor,
            OperationId operationId) {
        return retentionAudit.find(action, actor, operationId);
    }

    @Override
    public RetentionRecord appendRetentionAction(RetentionRecordDraft draft) {
        return retentionAudit.append(draft);
    }

    @Override
    public PurgeSurvey purgeSurvey(PurgePlanRequest request) {
        return purges.survey(request);
    }

    @Override
    public PurgeCounts applyPurge(PurgePlan plan) {
        return purges.apply(plan);
    }
}
