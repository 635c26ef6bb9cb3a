package io.durablebatch.repository.spi;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.PlanFingerprint;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.execution.StepName;
import io.durablebatch.repository.DefinitionUpgrade;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.StepProgress;
import io.durablebatch.repository.control.ExecutionControl;
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

/**
 * The repository's calls that only an execution kernel makes: it records steps and their progress,
 * flows, partitions, ownership and control as it runs a job. One bean implements them together
 * with {@link JobRepository}, under the same rules (the caller's JTA transaction is the unit of
 * work; a refusal is a {@link io.durablebatch.repository.RepositoryException} and changes nothing).
 * An application reads and maintains its jobs through {@link JobRepository} and runs them through
 * the {@code JobOperator}; it needs this interface only to drive the repository without the kernel.
 */
public interface KernelRepository extends JobRepository {

    /** Records one explicit directed edge "a checkpoint made under A may be restarted under B". */
    void registerDefinitionUpgrade(JobName jobName, DefinitionUpgrade upgrade);

    /**
     * The kernel's launch: creates a new attempt under the rules of
     * {@link JobRepository#createJobExecution}, already claimed by {@code owner} (its lease taken on
     * the database clock) and STARTED, as {@link #claimExecutionOwner} and a transition to STARTED
     * would leave it. One statement; the same refusals as {@code createJobExecution}.
     */
    JobExecution launchJobExecution(JobExecutionRequest request, OwnerToken owner, Instant launchedAt);

    /**
     * Ends an active execution that {@code owner} holds, COMPLETED or FAILED, at whatever version it
     * stands (a stop request may have moved it since the owner read it): the owner's token fences the
     * end instead. One statement.
     *
     * @throws io.durablebatch.repository.RepositoryException {@code OWNER_MISMATCH}, {@code EXECUTION_NOT_ACTIVE},
     *         {@code ILLEGAL_TRANSITION} or {@code JOB_EXECUTION_NOT_FOUND}
     * @throws IllegalArgumentException for any other target
     */
    JobExecution endOwnedJobExecution(JobExecutionId id, OwnerToken owner, LifecycleTransition end);

    /** Links a new STARTING step attempt to an active job execution. */
    StepExecution createStepExecution(JobExecutionId jobExecutionId, StepName stepName);

    /**
     * Locks the execution's instance, then the execution, to the end of the caller's transaction,
     * and returns the execution as it is once both are held; empty if it does not exist. An
     * operator's decision on an instance (restart, abandon, stop; a recovery and a start take the
     * same lock of the instance) starts here: decisions on one instance are made one at a time, each
     * on what the previous one committed, and two requests of one operation id are answered once.
     */
    Optional<JobExecution> lockJobExecutionForDecision(JobExecutionId id);

    /** Applies one lifecycle transition to a job execution by compare-and-swap on its version. */
    JobExecution transitionJobExecution(JobExecutionId id, ExecutionVersion expectedVersion,
            LifecycleTransition transition);

    /** Replaces a job execution's exit status only, by compare-and-swap on its version. */
    JobExecution enrichJobExitStatus(JobExecutionId id, ExecutionVersion expectedVersion, ExitStatus exitStatus);

    /**
     * Applies one lifecycle transition to a step execution by compare-and-swap on its version; a
     * STARTED step may record progress (checkpoint and counters) while staying STARTED.
     */
    StepExecution transitionStepExecution(StepExecutionId id, ExecutionVersion expectedVersion,
            LifecycleTransition transition);

    /**
     * Records a running step's progress — its checkpoint (kept when empty) and absolute counters — by
     * compare-and-swap on its version, the step staying STARTED, and reads in the same statement
     * whether a stop was requested for its job execution: a chunk commit of the kernel costs one
     * statement and sees a durable stop request at the chunk boundary. It changes only what
     * {@code transitionStepExecution} with {@link LifecycleTransition#progress} would change.
     *
     * @throws io.durablebatch.repository.RepositoryException {@code VERSION_CONFLICT}, {@code ILLEGAL_TRANSITION} (the step is
     *         not STARTED) or {@code STEP_EXECUTION_NOT_FOUND}
     */
    StepProgress recordStepProgress(StepExecutionId id, ExecutionVersion expectedVersion, Optional<Checkpoint> checkpoint,
            StepCounters counters, Instant at);

    /** Replaces a step execution's exit status only, by compare-and-swap on its version. */
    StepExecution enrichStepExitStatus(StepExecutionId id, ExecutionVersion expectedVersion, ExitStatus exitStatus);

    // Flows (plan format 2)

    /**
     * Starts one attempt of a flow node: links a new STARTING step attempt named {@code stepName} to
     * the active job execution and consumes one start of {@code nodeId}. Starts are counted across
     * every execution of the instance, by node id (a renamed step keeps its count); racing starters
     * of one node are counted one after the other, so no more than the limit ever start.
     *
     * @throws io.durablebatch.repository.RepositoryException {@code START_LIMIT_EXCEEDED}, {@code EXECUTION_NOT_ACTIVE} or
     *         {@code JOB_EXECUTION_NOT_FOUND}
     */
    StepExecution createFlowStepExecution(JobExecutionId jobExecutionId, StepName stepName, NodeId nodeId,
            StartLimit startLimit);

    /**
     * Starts one attempt of a flow node as {@link #createFlowStepExecution} does, STARTED at once (with
     * its lease) and recording the checkpoint it resumes, as the transition to STARTED would leave it.
     * One statement; the same refusals.
     */
    StepExecution startFlowStepExecution(JobExecutionId jobExecutionId, StepName stepName, NodeId nodeId,
            StartLimit startLimit, Optional<Checkpoint> resumeFrom, Instant startedAt);

    /** The node's latest attempt in the instance, whatever step name it ran under, with the starts consumed. */
    Optional<FlowStepState> latestFlowStep(JobInstanceId jobInstanceId, NodeId nodeId);

    /**
     * The latest attempt of a step named {@code stepName} in the instance's executions other than
     * {@code current}: the one of the latest such execution that has any, and of that execution's,
     * the latest. One statement, however many executions the instance has and whichever of them ran
     * the step.
     */
    Optional<StepExecution> latestStepExecutionBefore(JobInstanceId jobInstanceId, StepName stepName,
            JobExecutionId current);

    /**
     * Appends one transition the flow already validated against its plan, with the job execution's
     * next sequence number (from one, without gaps, also under concurrent appenders), before its
     * target starts. A STOP's target is its restart position, where the next execution begins: it
     * may be a node this execution ran.
     *
     * @throws io.durablebatch.repository.RepositoryException {@code FLOW_DECISION_TARGET_STARTED}, {@code FLOW_PLAN_MISMATCH},
     *         {@code EXECUTION_NOT_ACTIVE} or {@code JOB_EXECUTION_NOT_FOUND}
     */
    FlowDecision appendFlowDecision(FlowDecisionRequest request);

    /**
     * The latest decision of the instance taken at {@code nodeId} under exactly this plan, on exactly
     * this durable input and of this kind: a restart replays it instead of deciding again.
     */
    Optional<FlowDecision> findReusableFlowDecision(JobInstanceId jobInstanceId, NodeId nodeId,
            PlanFingerprint planFingerprint, InputDigest inputDigest, FlowTransitionKind kind);

    // Partitions

    /**
     * Inserts the whole partition plan of a STARTING or STARTED parent step before any worker starts,
     * in one statement. Entry order gives the one-based ordinal. Nothing is stored on refusal.
     *
     * @return the plan in partition-key byte order
     * @throws io.durablebatch.repository.RepositoryException {@code PARTITION_PLAN_EMPTY}, {@code PARTITION_PLAN_TOO_LARGE},
     *         {@code PARTITION_KEY_DUPLICATE}, {@code PARTITION_PLAN_EXISTS},
     *         {@code PARTITION_PARENT_NOT_ACTIVE} or {@code STEP_EXECUTION_NOT_FOUND}
     */
    List<StepPartition> createStepPartitionPlan(StepExecutionId parentStepExecutionId, List<PartitionPlanEntry> entries);

    /**
     * Copies a prior attempt's plan to a new parent step of the same instance. Each assigned source
     * partition is first settled from its worker's durable row; COMPLETED results are kept (with the
     * worker they came from) and are never assigned again, everything else becomes unassigned
     * STARTING work. All or nothing.
     *
     * @return the target plan in partition-key byte order
     * @throws io.durablebatch.repository.RepositoryException {@code PARTITION_SOURCE_NOT_RESTARTABLE} unless the source job is
     *         STOPPED or FAILED, {@code PARTITION_WORKER_ACTIVE} while a source worker has not ended,
     *         {@code PARTITION_PLAN_NOT_FOUND}, {@code PARTITION_PLAN_EXISTS},
     *         {@code PARTITION_PARENT_NOT_ACTIVE}, {@code PARTITION_SOURCE_MISMATCH} or
     *         {@code STEP_EXECUTION_NOT_FOUND}
     */
    List<StepPartition> restartStepPartitionPlan(StepExecutionId sourceStepExecutionId,
            StepExecutionId targetStepExecutionId);

    /**
     * Assigns one unassigned partition to a worker step attempt by compare-and-swap. The worker is a
     * STARTING or STARTED step of the parent's job execution that runs no other partition of the plan.
     *
     * @throws io.durablebatch.repository.RepositoryException {@code PARTITION_NOT_ASSIGNABLE},
     *         {@code PARTITION_WORKER_NOT_ELIGIBLE},
     *         {@code PARTITION_PARENT_NOT_ACTIVE}, {@code VERSION_CONFLICT}, {@code PARTITION_NOT_FOUND}
     *         or {@code STEP_EXECUTION_NOT_FOUND}
     */
    StepPartition assignStepPartition(StepPartitionId id, ExecutionVersion expectedVersion,
            StepExecutionId workerStepExecutionId);

    /**
     * Assigns the next unassigned partition of the plan, in entry order, to a worker step attempt, as
     * {@link #assignStepPartition} does. Workers in any number of processes claim side by side: a
     * partition being claimed by a concurrent transaction is skipped, never waited for.
     *
     * @return the claimed partition, or empty when no unassigned partition is left
     * @throws io.durablebatch.repository.RepositoryException as {@link #assignStepPartition}, and
     *         {@code PARTITION_PLAN_NOT_FOUND}
     */
    Optional<StepPartition> claimNextStepPartition(StepExecutionId parentStepExecutionId,
            StepExecutionId workerStepExecutionId);

    /**
     * The partition plans that still hand out work, of jobs named in {@code jobNames}: the parent step
     * is STARTED in a STARTED job execution and at least one partition is unassigned. Oldest parent
     * first, at most {@code limit} (1 to {@value #MAX_OPEN_PLANS}). How workers of any process find
     * work; a plan listed may be worked off by the time a worker claims from it.
     */
    List<OpenPartitionPlan> openStepPartitionPlans(Collection<JobName> jobNames, int limit);

    /**
     * Completes an assigned partition by compare-and-swap, copying status, exit status and counters
     * from the assigned worker's durable step execution: a caller cannot supply a result.
     *
     * @throws io.durablebatch.repository.RepositoryException {@code PARTITION_NOT_ASSIGNED}, {@code PARTITION_WORKER_MISMATCH},
     *         {@code PARTITION_WORKER_ACTIVE}, {@code ILLEGAL_TRANSITION} (already completed),
     *         {@code VERSION_CONFLICT} or {@code PARTITION_NOT_FOUND}
     */
    StepPartition completeStepPartition(StepPartitionId id, ExecutionVersion expectedVersion,
            StepExecutionId workerStepExecutionId);

    /**
     * Terminates a parent step with the aggregate of its partitions, by compare-and-swap: the status
     * of the most severe partition (FAILED, then STOPPED, then COMPLETED), the exit status of the
     * first partition in key order with that status, and the summed counters.
     *
     * @throws io.durablebatch.repository.RepositoryException {@code PARTITION_CHILD_ACTIVE} while a partition is unassigned or
     *         running, {@code ILLEGAL_TRANSITION} if the lifecycle table does not let the parent take the
     *         aggregate status, {@code PARTITION_PLAN_NOT_FOUND}, {@code VERSION_CONFLICT} or
     *         {@code STEP_EXECUTION_NOT_FOUND}
     */
    default StepExecution aggregateStepPartitions(StepExecutionId parentStepExecutionId,
            ExecutionVersion expectedVersion, Instant transitionedAt) {
        return aggregateStepPartitions(parentStepExecutionId, expectedVersion, transitionedAt, Optional.empty());
    }

    /**
     * {@link #aggregateStepPartitions(StepExecutionId, ExecutionVersion, Instant)}, with the exit status
     * the parent's own thread set (its partitions' analyzer), which replaces the most severe
     * partition's.
     */
    StepExecution aggregateStepPartitions(StepExecutionId parentStepExecutionId, ExecutionVersion expectedVersion,
            Instant transitionedAt, Optional<ExitStatus> exitStatus);

    // Operators and ownership (SPEC section 8)

    /**
     * Appends one operator audit row in the transaction of the request's effect. The (action,
     * actor, operation id) triple is unique: appending the same request again (same request digest)
     * returns the recorded row unchanged; the same operation id of another actor is another
     * operation.
     *
     * @throws io.durablebatch.repository.RepositoryException {@code OPERATION_CONFLICT} when the actor recorded the operation
     *         id
     *         for this action with another request digest
     */
    OperatorRecord appendOperatorRequest(OperatorRecordDraft draft);

    /**
     * Records a durable request to stop an active execution, by compare-and-swap on its version
     * (which moves by one). The status does not change: the owner sees the request when it next
     * observes control.
     *
     * @throws io.durablebatch.repository.RepositoryException {@code VERSION_CONFLICT}, {@code EXECUTION_NOT_ACTIVE},
     *         {@code STOP_ALREADY_REQUESTED} or {@code JOB_EXECUTION_NOT_FOUND}
     */
    JobExecution requestExecutionStop(JobExecutionId id, ExecutionVersion expectedVersion, ActorRef actor,
            Instant requestedAt);

    /**
     * Records {@code owner} as the process running a new STARTING execution, by compare-and-swap on
     * its version. Claiming again with the same token returns the execution unchanged; another token
     * is refused and never takes the attempt over.
     *
     * @throws io.durablebatch.repository.RepositoryException {@code OWNER_MISMATCH}, {@code OWNER_NOT_CLAIMABLE},
     *         {@code VERSION_CONFLICT} or {@code JOB_EXECUTION_NOT_FOUND}
     */
    JobExecution claimExecutionOwner(JobExecutionId id, ExecutionVersion expectedVersion, OwnerToken owner,
            Instant claimedAt);

    /**
     * The owner asks whether to go on, and renews its lease (on the database clock; the version stays).
     * When a stop was requested and the execution is STARTED, it moves to STOPPING in this
     * transaction (version + 1). One statement.
     *
     * @throws io.durablebatch.repository.RepositoryException {@code OWNER_MISMATCH}, {@code EXECUTION_NOT_ACTIVE} (e.g. it was
     *         recovered: stop working on it) or {@code JOB_EXECUTION_NOT_FOUND}
     */
    ExecutionControl observeExecutionControl(JobExecutionId id, OwnerToken owner, Instant observedAt);
}
