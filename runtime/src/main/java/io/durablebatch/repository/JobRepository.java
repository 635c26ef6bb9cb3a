package io.durablebatch.repository;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import io.durablebatch.operator.ExecutionControl;
import io.durablebatch.operator.OperatorAction;
import io.durablebatch.operator.OperatorRecord;
import io.durablebatch.operator.OperatorRecordDraft;
import io.durablebatch.operator.OwnerToken;
import io.durablebatch.retention.PurgeCounts;
import io.durablebatch.retention.PurgePlan;
import io.durablebatch.retention.PurgePlanRequest;
import io.durablebatch.retention.PurgeSurvey;
import io.durablebatch.retention.RetentionAction;
import io.durablebatch.retention.RetentionHold;
import io.durablebatch.retention.RetentionRecord;
import io.durablebatch.retention.RetentionRecordDraft;

/**
 * The durable job repository: transaction-scoped metadata operations of the batch kernel.
 * <p>
 * Every method joins the caller's JTA transaction, which is the unit of work, and fails with
 * {@link RepositoryError#TRANSACTION_REQUIRED} without one. A successful call is provisional until
 * the transaction commits; a transaction that ends by exception rolls back. Conflicts (stale
 * version, unique key) are detected at the call, not at commit. A refusal throws
 * {@link RepositoryException} and changes nothing. Results are immutable snapshots.
 */
public interface JobRepository {

    /** Records one explicit directed edge "a checkpoint made under A may be restarted under B". */
    void registerDefinitionUpgrade(JobName jobName, DefinitionUpgrade upgrade);

    /**
     * Returns the one logical instance for {@code key}, creating it if needed. Any number of
     * concurrent callers in separate transactions end with one instance and no error.
     */
    JobInstanceSelection selectOrCreateJobInstance(JobInstanceKey key);

    /**
     * Creates a launch or restart attempt. A first attempt is allowed when the instance has none;
     * a later one only when the latest is STOPPED or FAILED. Of two transactions racing to create an
     * attempt for one instance, exactly one wins.
     *
     * @throws RepositoryException {@code INSTANCE_COMPLETE}, {@code INSTANCE_ABANDONED},
     *         {@code EXECUTION_ACTIVE}, {@code EXECUTION_UNKNOWN} or {@code JOB_INSTANCE_NOT_FOUND}
     */
    JobExecution createJobExecution(JobInstanceId jobInstanceId);

    /**
     * As {@link #createJobExecution(JobInstanceId)}, bound to an exact definition. A restart must use
     * the definition of the latest attempt that recorded one, or one reachable from it by a single
     * registered upgrade edge.
     *
     * @throws RepositoryException additionally {@code DEFINITION_INCOMPATIBLE} or
     *         {@code DEFINITION_JOB_MISMATCH}
     */
    JobExecution createJobExecution(JobInstanceId jobInstanceId, DefinitionIdentity definition);

    /** Links a new STARTING step attempt to an active job execution. */
    StepExecution createStepExecution(JobExecutionId jobExecutionId, StepName stepName);

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

    /** Replaces a step execution's exit status only, by compare-and-swap on its version. */
    StepExecution enrichStepExitStatus(StepExecutionId id, ExecutionVersion expectedVersion, ExitStatus exitStatus);

    Optional<JobInstance> findJobInstance(JobInstanceKey key);

    Optional<JobInstance> getJobInstance(JobInstanceId id);

    Optional<JobExecution> getJobExecution(JobExecutionId id);

    /** The instance's latest attempt, if any: one indexed lookup whatever the history. */
    Optional<JobExecution> latestJobExecution(JobInstanceId jobInstanceId);

    /** The instance's attempts in creation order. */
    List<JobExecution> jobExecutions(JobInstanceId jobInstanceId);

    Optional<StepExecution> getStepExecution(StepExecutionId id);

    /** The job execution's step attempts in creation order. */
    List<StepExecution> stepExecutions(JobExecutionId jobExecutionId);

    /**
     * Atomically resolves one orphaned (active, owner gone) or ambiguous (UNKNOWN) execution to
     * FAILED or ABANDONED, resolves its unresolved steps the same way, and appends one
     * {@link RecoveryDecision}. Repeating the same operation returns the recorded result.
     *
     * @throws RepositoryException {@code EXECUTION_NOT_RECOVERABLE}, {@code VERSION_CONFLICT},
     *         {@code ALREADY_RECOVERED}, {@code OPERATION_CONFLICT} or {@code JOB_EXECUTION_NOT_FOUND}
     */
    RecoveryResult recoverJobExecution(JobExecutionId id, RecoveryRequest request);

    Optional<RecoveryDecision> recoveryDecision(JobExecutionId id);

    // Operators and ownership (SPEC section 8)

    /**
     * Appends one operator audit row in the transaction of the request's effect. The (action,
     * operation id) pair is unique: appending the same request again (same request digest) returns
     * the recorded row unchanged.
     *
     * @throws RepositoryException {@code OPERATION_CONFLICT} when the operation id was recorded for
     *         this action with another request digest
     */
    OperatorRecord appendOperatorRequest(OperatorRecordDraft draft);

    /** The recorded request of one (action, operation id): a retried request is answered from it. */
    Optional<OperatorRecord> findOperatorRequest(OperatorAction action, OperationId operationId);

    /**
     * Records a durable request to stop an active execution, by compare-and-swap on its version
     * (which moves by one). The status does not change: the owner sees the request when it next
     * observes control.
     *
     * @throws RepositoryException {@code VERSION_CONFLICT}, {@code EXECUTION_NOT_ACTIVE},
     *         {@code STOP_ALREADY_REQUESTED} or {@code JOB_EXECUTION_NOT_FOUND}
     */
    JobExecution requestExecutionStop(JobExecutionId id, ExecutionVersion expectedVersion, ActorRef actor,
            Instant requestedAt);

    /**
     * Records {@code owner} as the process running a new STARTING execution, by compare-and-swap on
     * its version. Claiming again with the same token returns the execution unchanged; another token
     * is refused and never takes the attempt over.
     *
     * @throws RepositoryException {@code OWNER_MISMATCH}, {@code OWNER_NOT_CLAIMABLE},
     *         {@code VERSION_CONFLICT} or {@code JOB_EXECUTION_NOT_FOUND}
     */
    JobExecution claimExecutionOwner(JobExecutionId id, ExecutionVersion expectedVersion, OwnerToken owner,
            Instant claimedAt);

    /**
     * The owner asks whether to go on. When a stop was requested and the execution is STARTED, it
     * moves to STOPPING in this transaction (version + 1). One statement when no stop is pending.
     *
     * @throws RepositoryException {@code OWNER_MISMATCH}, {@code EXECUTION_NOT_ACTIVE} (e.g. it was
     *         recovered: stop working on it) or {@code JOB_EXECUTION_NOT_FOUND}
     */
    ExecutionControl observeExecutionControl(JobExecutionId id, OwnerToken owner, Instant observedAt);

    // Retention (SPEC section 9)

    /** The retention hold of an instance, if one is in place. */
    Optional<RetentionHold> jobInstanceHold(JobInstanceId id);

    /**
     * Places the one retention hold of an instance; the database allows no second one.
     *
     * @throws RepositoryException {@code HOLD_EXISTS} or {@code JOB_INSTANCE_NOT_FOUND}
     */
    RetentionHold placeInstanceHold(JobInstanceId id, ActorRef actor, ReasonCode reason, Instant placedAt);

    /** Releases the hold of an instance and returns it; empty when there was none. */
    Optional<RetentionHold> releaseInstanceHold(JobInstanceId id);

    /** The recorded retention operation of one (action, operation id). */
    Optional<RetentionRecord> findRetentionAction(RetentionAction action, OperationId operationId);

    /**
     * Appends one retention audit row in the transaction it audits, idempotent like
     * {@link #appendOperatorRequest}.
     *
     * @throws RepositoryException {@code OPERATION_CONFLICT}
     */
    RetentionRecord appendRetentionAction(RetentionRecordDraft draft);

    /**
     * A bounded list of purge candidates in instance id order: instances whose executions all ended
     * before the cutoff, with no hold and no active or UNKNOWN execution, each with what was
     * observed of it.
     */
    PurgeSurvey purgeSurvey(PurgePlanRequest request);

    /**
     * Re-validates every candidate of {@code plan} and, if none changed, deletes the batch with
     * everything the instances own, children first, and returns the rows deleted per table. Audit
     * rows (operator, recovery, retention) are kept. Overlapping purges in concurrent transactions
     * serialize on the instances: the later one finds its plan stale.
     *
     * @throws RepositoryException {@code RETENTION_PLAN_STALE}, having deleted nothing
     */
    PurgeCounts applyPurge(PurgePlan plan);
}
