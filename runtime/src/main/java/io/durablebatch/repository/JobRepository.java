package io.durablebatch.repository;

import java.util.List;
import java.util.Optional;

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
}
