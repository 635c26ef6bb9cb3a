package io.durablebatch.operator;

import java.time.Duration;
import java.util.Collection;
import java.util.Optional;

import io.durablebatch.execution.ExecutionParameters;
import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.ReasonCode;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.repository.RecoveryResolution;
import io.durablebatch.repository.RecoveryResult;
import io.durablebatch.repository.RepositoryException;

/**
 * Launches and controls the jobs of this application. Executions run on the kernel's own threads
 * ({@code quarkus.durable-batch.executor.max-concurrency} at a time); every request names an
 * {@link OperatorCall}.
 *
 * <h2>Transactions</h2>
 * A request made in an active JTA transaction joins it: {@link #start} and {@link #restart} record
 * the execution in the caller's transaction, and it begins to run only once that transaction
 * committed; rolled back (or marked for rollback), it leaves nothing: no instance, no execution, no
 * audit record. {@link #stop}, {@link #abandon} and {@link #recover} record their decision in it
 * too, and take effect with its commit. Without a transaction, each request runs in one of its own.
 * Joining is the default, not an option, because a launch is a write like any other the caller
 * makes: a job started by a business transaction that then rolls back must not run (the outbox
 * pattern, without an outbox table), and the repository's own operations already take part in the
 * caller's transaction. A caller who wants the launch to survive its rollback asks for that
 * explicitly, with a transaction of its own ({@code QuarkusTransaction.requiringNew()} or
 * {@code @Transactional(REQUIRES_NEW)}). Waiting in the transaction for an execution it launched
 * would wait forever: {@link #await} and {@link #runAndWait} refuse it at once with an
 * {@link IllegalStateException}. The rows a request locks (its job instance, the execution it names)
 * stay locked until the caller's transaction ends, and the lease of a launched execution runs from
 * its launch: keep the transaction short, well within {@code quarkus.durable-batch.lease.duration}.
 * Should the process die between the commit and the start, the execution's lease runs out and any
 * node's sweeper recovers it (and restarts it if {@code quarkus.durable-batch.lease.restart-on-owner-loss}
 * allows).
 */
public interface JobOperator {

    /** The jobs this application defines, in the order of their names. */
    Collection<JobDefinition> jobDefinitions();

    /** The job of this name, if this application defines it. */
    Optional<JobDefinition> jobDefinition(String jobName);

    /**
     * Launches the job instance for these parameters: a first attempt, or a restart when its latest
     * attempt STOPPED or FAILED. Returns once the attempt is recorded; it runs asynchronously, once
     * the caller's transaction, if any, committed (see the class comment).
     *
     * @throws IllegalArgumentException if no job of this name is defined
     * @throws RepositoryException {@code EXECUTION_ACTIVE} while an attempt runs,
     *         {@code INSTANCE_COMPLETE}, {@code INSTANCE_ABANDONED}, {@code EXECUTION_UNKNOWN},
     *         {@code DEFINITION_INCOMPATIBLE}, {@code JOB_NOT_DEFINED}, {@code OPERATION_CONFLICT}
     */
    JobExecutionId start(String jobName, JobParameters parameters, OperatorCall call);

    /**
     * {@link #start} and {@link #await} the end of the attempt, without a time limit.
     *
     * @throws IllegalStateException in a transaction, before launching anything: the attempt would
     *         start only once it committed
     */
    JobExecution runAndWait(String jobName, JobParameters parameters, OperatorCall call);

    /**
     * Launches a new attempt of the instance of {@code execution}, which must be its latest attempt
     * and STOPPED or FAILED. The attempt resumes each unfinished step from its last checkpoint, with
     * the non-identifying parameters of the attempt it restarts.
     *
     * @throws RepositoryException {@code EXECUTION_SUPERSEDED} for an attempt a later one replaced,
     *         {@code EXECUTION_ACTIVE}, {@code INSTANCE_ABANDONED}, {@code JOB_NOT_DEFINED}
     */
    JobExecutionId restart(JobExecutionId execution, OperatorCall call);

    /**
     * {@link #restart(JobExecutionId, OperatorCall)} with other non-identifying parameters than the
     * attempt it restarts ran with (which a plain restart keeps): a larger thread count, a source
     * that moved. The identifying ones are the instance's and never change.
     */
    JobExecutionId restart(JobExecutionId execution, ExecutionParameters nonIdentifying, OperatorCall call);

    /**
     * Waits until the execution is no longer active and returns it as it ended.
     *
     * @throws IllegalStateException if it is still active after {@code timeout}, or at once if it
     *         was launched in the caller's transaction, which has not committed yet
     */
    JobExecution await(JobExecutionId execution, Duration timeout);

    /**
     * The execution as it is now, read with one statement: the read a caller polls. In the caller's
     * active transaction it joins it, and sees what the transaction wrote (an execution it launched
     * is there, STARTED); without one it runs on its own, outside any transaction: one statement is
     * its own snapshot, as consistent as the same read in a transaction, and costs no commit.
     *
     * @throws RepositoryException {@code TRANSACTION_REQUIRED} in a transaction that is no longer
     *         active (marked for rollback, completing)
     */
    Optional<JobExecution> execution(JobExecutionId execution);

    /**
     * Asks a running execution to stop at its next chunk boundary. It ends STOPPED, with the
     * checkpoint of its last committed chunk, and can be restarted.
     */
    void stop(JobExecutionId execution, OperatorCall call);

    /**
     * Gives up a STOPPED or FAILED execution for good: its instance can never run again.
     *
     * @throws RepositoryException {@code ILLEGAL_TRANSITION} for an execution in another status,
     *         {@code EXECUTION_SUPERSEDED} for an attempt a later one replaced
     */
    JobExecution abandon(JobExecutionId execution, OperatorCall call);

    /**
     * Resolves an execution whose owner is gone (a process that died) or that is UNKNOWN: FAILED
     * (restartable from its checkpoints) or ABANDONED. {@code observedVersion} is the version the
     * caller based its decision on; if the execution moved since, the request is refused. An
     * execution whose lease is live (its owner renewed it within the lease duration) is refused with
     * {@code EXECUTION_LEASE_LIVE}: wait for the lease to run out (the sweeper of any node then
     * recovers it by itself), or declare the owner dead. An execution running in this process is
     * never recovered: stop it instead.
     *
     * @throws RepositoryException {@code EXECUTION_LEASE_LIVE}, {@code VERSION_CONFLICT},
     *         {@code EXECUTION_NOT_RECOVERABLE}, {@code ALREADY_RECOVERED}, {@code OPERATION_CONFLICT}
     */
    RecoveryResult recover(JobExecutionId execution, ExecutionVersion observedVersion, RecoveryResolution resolution,
            ReasonCode reason, OperatorCall call);

    /**
     * {@link #recover} that may declare the owner dead ({@code ownerDeclaredDead}): for an operator
     * who knows the owner's process is gone and does not want to wait for its lease to run out. The
     * lease is then not checked; should the owner be alive after all, it is fenced off: every step it
     * runs is resolved with the execution, so its next chunk commit is refused and rolled back with
     * its writes, and it abandons the work.
     */
    RecoveryResult recover(JobExecutionId execution, ExecutionVersion observedVersion, RecoveryResolution resolution,
            ReasonCode reason, boolean ownerDeclaredDead, OperatorCall call);
}
