package io.durablebatch.repository;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstance;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobInstanceKey;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.OperationId;
import io.durablebatch.execution.ReasonCode;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.repository.control.ExecutionOwnership;
import io.durablebatch.repository.control.OperatorAction;
import io.durablebatch.repository.control.OperatorRecord;
import io.durablebatch.repository.flow.FlowDecision;
import io.durablebatch.repository.partition.StepPartition;
import io.durablebatch.repository.retention.PurgeCounts;
import io.durablebatch.repository.retention.PurgePlan;
import io.durablebatch.repository.retention.PurgePlanRequest;
import io.durablebatch.repository.retention.PurgeSurvey;
import io.durablebatch.repository.retention.RetentionAction;
import io.durablebatch.repository.retention.RetentionHold;
import io.durablebatch.repository.retention.RetentionRecord;
import io.durablebatch.repository.retention.RetentionRecordDraft;

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

    /**
     * Returns the one logical instance for {@code key}, creating it if needed. Any number of
     * concurrent callers in separate transactions end with one instance and no error. The instance
     * is locked to the end of the caller's transaction (an existing one as operator decisions on it
     * lock it, a new one by being its creator's alone until it commits), so that whatever the caller
     * decides about it next is decided on what the previous decision committed.
     *
     * @throws RepositoryException {@code PARAMETER_OUT_OF_DOMAIN} for an identifying parameter
     *         outside {@link io.durablebatch.execution.ParameterDomain}, before anything is written
     */
    JobInstanceSelection selectOrCreateJobInstance(JobInstanceKey key);

    /**
     * Creates a launch or restart attempt. A first attempt is allowed when the instance has none;
     * a later one only when the latest is STOPPED or FAILED. Of two transactions racing to create an
     * attempt for one instance, exactly one wins. An attempt bound to a definition
     * ({@link JobExecutionRequest#definedBy}) must, on restart, use the definition of the latest
     * attempt that recorded one, or one reachable from it by a single registered upgrade edge.
     *
     * @throws RepositoryException {@code INSTANCE_COMPLETE}, {@code INSTANCE_ABANDONED},
     *         {@code EXECUTION_ACTIVE}, {@code EXECUTION_UNKNOWN} or {@code JOB_INSTANCE_NOT_FOUND};
     *         for a bound attempt also {@code DEFINITION_INCOMPATIBLE} or {@code DEFINITION_JOB_MISMATCH};
     *         {@code PARAMETER_OUT_OF_DOMAIN} for a parameter outside
     *         {@link io.durablebatch.execution.ParameterDomain}, before anything is written
     */
    JobExecution createJobExecution(JobExecutionRequest request);

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
     * The step attempts of several job executions (a page of a listing), each execution's in creation
     * order, read in one statement: a listing that shows its executions' steps costs its page's
     * statement and this one, not one more a row. Every execution given is a key; one without steps
     * (or unknown) has none.
     *
     * @throws IllegalArgumentException for more than {@link PageRequest#MAX_SIZE} executions, or a null one
     */
    Map<JobExecutionId, List<StepExecution>> stepExecutions(Collection<JobExecutionId> jobExecutionIds);

    /**
     * Atomically resolves one orphaned (active, owner gone) or ambiguous (UNKNOWN) execution to
     * FAILED or ABANDONED, resolves its unresolved steps the same way, and appends one
     * {@link RecoveryDecision}. Repeating the same operation returns the recorded result. Partitions
     * their workers were running take the workers' resolution.
     * <p>
     * An execution whose lease is live (its owner renewed it within the lease duration, on the
     * database clock) is refused with {@code EXECUTION_LEASE_LIVE}, unless the request declares its
     * owner dead ({@link RecoveryRequest#ownerDeclaredDead()}): then the owner, should it be alive
     * after all, is fenced off, as every step it runs is resolved and its next commit is refused.
     *
     * @throws RepositoryException {@code EXECUTION_NOT_RECOVERABLE}, {@code EXECUTION_LEASE_LIVE}, {@code VERSION_CONFLICT},
     *         {@code ALREADY_RECOVERED}, {@code OPERATION_CONFLICT} or {@code JOB_EXECUTION_NOT_FOUND}
     */
    RecoveryResult recoverJobExecution(JobExecutionId id, RecoveryRequest request);

    Optional<RecoveryDecision> recoveryDecision(JobExecutionId id);

    /** The job execution's flow decisions in sequence order. */
    List<FlowDecision> flowDecisions(JobExecutionId jobExecutionId);

    /** The complete plan in partition-key (unsigned byte) order; empty when the step has none. */
    List<StepPartition> stepPartitionPlan(StepExecutionId parentStepExecutionId);

    // Listings: keyset pages, newest first (partitions in plan order), each one bounded statement
    // served by an index, so a page costs the same at any depth and with any history.

    /**
     * The executions that match {@code query}, newest first. The job, or else a status, picks the
     * index the listing walks; the time range and the owner filter what it finds there.
     *
     * @throws IllegalArgumentException for a cursor of another listing ({@code page.after})
     */
    Page<JobExecution> findJobExecutions(ExecutionQuery query, PageRequest page);

    /** The job's instances, newest first. */
    Page<JobInstance> findJobInstances(JobName job, PageRequest page);

    /** How many instances the job has: one count over the index of the job's instances. */
    long countJobInstances(JobName job);

    /** Who owns the execution, whether a stop was requested, and its lease on the database clock. */
    Optional<ExecutionOwnership> executionOwnership(JobExecutionId id);

    /**
     * The job execution's step attempts that are the parents of a partition plan (its partitioned
     * steps' attempts), in creation order, read in one statement however many attempts (workers
     * included) the execution has: a view that marks an execution's partitioned steps costs this
     * statement, not one more a step.
     */
    List<StepExecutionId> partitionedStepExecutions(JobExecutionId jobExecutionId);

    /** One page of the step's partition plan, in ordinal (plan) order. */
    Page<StepPartition> stepPartitions(StepExecutionId parentStepExecutionId, PageRequest page);

    /** The operator audit, newest first: of one instance, or of every instance. */
    Page<OperatorRecord> findOperatorRecords(Optional<JobInstanceId> instance, PageRequest page);

    /** The recovery audit, newest first: of one instance, or of every instance. */
    Page<RecoveryDecision> findRecoveryDecisions(Optional<JobInstanceId> instance, PageRequest page);

    /** The retention audit, newest first: of one instance, or of every instance (purges included). */
    Page<RetentionRecord> findRetentionRecords(Optional<JobInstanceId> instance, PageRequest page);

    /** The retention holds in place, newest instance first. */
    Page<RetentionHold> findInstanceHolds(PageRequest page);

    /** The most open partition plans one {@code KernelRepository.openStepPartitionPlans} call returns. */
    int MAX_OPEN_PLANS = 1000;

    /**
     * The recorded request of one (action, actor, operation id): a retried request is answered from
     * it. An operation id is its actor's own: another actor's request under the same id is another
     * operation.
     */
    Optional<OperatorRecord> findOperatorRequest(OperatorAction action, ActorRef actor, OperationId operationId);

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

    /**
     * The recorded retention operation of one (action, actor, operation id). It first waits for a
     * concurrent transaction working under the same key, so that a retry racing its original is
     * answered from the original's record rather than refused by its effect.
     */
    Optional<RetentionRecord> findRetentionAction(RetentionAction action, ActorRef actor, OperationId operationId);

    /**
     * Appends one retention audit row in the transaction it audits, idempotent like
     * {@code KernelRepository.appendOperatorRequest}.
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
