package io.durablebatch.runtime.job;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import jakarta.inject.Singleton;

import io.durablebatch.Checks;
import io.durablebatch.execution.ExecutionParameters;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstance;
import io.durablebatch.execution.ReasonCode;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.Step;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.JobInstanceSelection;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.RecoveryRequest;
import io.durablebatch.repository.RecoveryResolution;
import io.durablebatch.repository.RecoveryResult;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.control.OperatorAction;
import io.durablebatch.repository.control.OperatorRecord;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.repository.JobExecutionStore;
import io.durablebatch.runtime.repository.ParameterDomainCheck;
import io.durablebatch.runtime.sql.TransactionGuard;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * The kernel's {@link JobOperator}. Every request is one transaction holding its effect and its
 * operator audit record (the caller's, if it has one: {@link CallerTransaction}); a request retried
 * with the same operation id is answered from the record.
 * Each request first locks the instance it decides on (and the execution it names), then looks for
 * its record, then decides: decisions on one instance are made one at a time on what the previous
 * one committed (an ABANDONED attempt stays its instance's last), and a retry sent while its
 * original runs waits for it and is answered from its record.
 * A launch creates the attempt and claims it for this process's owner token in that transaction,
 * then runs it here once it committed.
 */
@Singleton
public class KernelJobOperator implements JobOperator {

    private static final Duration POLL = Duration.ofMillis(100);

    private final JobRegistry registry;
    private final KernelRepository repository;
    private final RunningExecutions running;
    private final OperatorAudit audit;
    private final KernelIdentity identity;
    private final StepRunners steps;
    private final CallerTransaction caller;
    private final JobExecutionStore jobExecutions;
    private final TransactionGuard transactions;

    KernelJobOperator(JobRegistry registry, KernelRepository repository, RunningExecutions running, OperatorAudit audit,
            KernelIdentity identity, StepRunners steps, CallerTransaction caller, JobExecutionStore jobExecutions,
            TransactionGuard transactions) {
        this.caller = caller;
        this.jobExecutions = jobExecutions;
        this.transactions = transactions;
        this.steps = steps;
        this.registry = registry;
        this.repository = repository;
        this.running = running;
        this.audit = audit;
        this.identity = identity;
    }

    /**
     * An attempt to run here, or the execution a retried request already launched. A new attempt is
     * STARTED by its launch ({@code started}), its first step with it where it can be;
     * {@code newInstance}: its launch created the instance, so no step of it has history.
     */
    record Launch(JobExecution execution, JobDefinition definition, JobParameters parameters, boolean replayed,
            boolean started, Optional<StepRunners.StepStart> firstStep, boolean newInstance) {
    }

    @Override
    public Collection<JobDefinition> jobDefinitions() {
        return registry.definitions().stream().sorted(Comparator.comparing(definition -> definition.name().value()))
                .toList();
    }

    @Override
    public Optional<JobDefinition> jobDefinition(String jobName) {
        return registry.find(Checks.notNull(jobName, "jobName"));
    }

    @Override
    public JobExecutionId start(String jobName, JobParameters parameters, OperatorCall call) {
        Checks.notNull(jobName, "jobName");
        Checks.notNull(parameters, "parameters");
        Checks.notNull(call, "call");
        JobDefinition definition = registry.get(jobName);
        // refused before the transaction: not even the instance is inserted
        ParameterDomainCheck.require(parameters.values());
        ParameterDomainCheck.require(parameters.nonIdentifying());
        String request = "start|job=" + jobName + "|key="
                + HexFormat.of().formatHex(parameters.keyFor(definition.name()).digest())
                + nonIdentifying(parameters.executionParameters());
        return launch(() -> {
            // the instance, locked, before the record: a retry racing its original waits for it here
            JobInstanceSelection selection = repository.selectOrCreateJobInstance(parameters.keyFor(definition.name()));
            Optional<OperatorRecord> recorded = audit.recorded(OperatorAction.START, call, request);
            if (recorded.isPresent()) {
                return replayed(recorded.get(), definition, parameters);
            }
            return launched(OperatorAction.START, call, request, selection.instance(), selection.created(), definition,
                    parameters);
        });
    }

    @Override
    public JobExecution runAndWait(String jobName, JobParameters parameters, OperatorCall call) {
        if (caller.joins()) {
            // its launch would start only once the transaction this thread holds open committed
            throw new IllegalStateException("runAndWait of job '" + jobName + "' in a transaction: the launch joins "
                    + "the caller's transaction and starts only once it commits, so waiting for its end here would "
                    + "wait forever; start it in the transaction and await it after the commit");
        }
        return awaitEnd(start(jobName, parameters, call), Optional.empty());
    }

    @Override
    public JobExecutionId restart(JobExecutionId executionId, OperatorCall call) {
        Checks.notNull(executionId, "execution");
        Checks.notNull(call, "call");
        return launch(() -> restartInTransaction(executionId, Optional.empty(), call));
    }

    @Override
    public JobExecutionId restart(JobExecutionId executionId, ExecutionParameters nonIdentifying, OperatorCall call) {
        Checks.notNull(executionId, "execution");
        Checks.notNull(nonIdentifying, "nonIdentifying");
        Checks.notNull(call, "call");
        return launch(() -> restartInTransaction(executionId, Optional.of(nonIdentifying), call));
    }

    /**
     * Creates, claims and audits the restart of {@code executionId} in the caller's transaction, with
     * the non-identifying parameters given, or else those of the attempt it restarts; the caller
     * runs it with {@link #submit} once that transaction committed.
     */
    Launch restartInTransaction(JobExecutionId executionId, Optional<ExecutionParameters> nonIdentifying,
            OperatorCall call) {
        String request = "restart|execution=" + executionId + nonIdentifying.map(KernelJobOperator::nonIdentifying)
                .orElse("");
        JobExecution previous = locked(executionId);
        JobInstance instance = repository.getJobInstance(previous.jobInstanceId()).orElseThrow();
        JobDefinition definition = registry.get(instance.jobName().value());
        JobParameters parameters = JobParameters.of(instance.key(), nonIdentifying.orElse(previous.parameters()));
        Optional<OperatorRecord> recorded = audit.recorded(OperatorAction.RESTART, call, request);
        if (recorded.isPresent()) {
            return replayed(recorded.get(), definition, parameters);
        }
        requireLatest(previous, "restart");
        return launched(OperatorAction.RESTART, call, request, instance, false, definition, parameters);
    }

    /**
     * The non-identifying parameters in a request's text (which the audit digests), so that the same
     * operation id with other values is a conflict, not a replay.
     */
    private static String nonIdentifying(ExecutionParameters parameters) {
        return parameters.isEmpty() ? "" : "|run=" + HexFormat.of().formatHex(parameters.canonicalBytes());
    }

    /**
     * Creates a new attempt of {@code instance} claimed by this process, audits its launch, and, if a
     * kernel thread is free to run it at once, moves it to STARTED and starts its first step (unless a
     * job listener must run first), all in the caller's transaction. An attempt that will wait for a thread waits STARTING, and
     * starts when
     * it gets one. {@code newInstance}: the instance was created in this transaction, so its steps
     * have no history.
     */
    private Launch launched(OperatorAction action, OperatorCall call, String request, JobInstance instance,
            boolean newInstance, JobDefinition definition, JobParameters parameters) {
        JobExecutionRequest attempt = JobExecutionRequest.of(instance.id()).definedBy(definition.identity())
                .withParameters(parameters.executionParameters());
        boolean atOnce = running.runsAtOnce();
        JobExecution launched;
        if (atOnce) {
            launched = repository.launchJobExecution(attempt, identity.owner(), Instant.now());
        } else {
            JobExecution created = repository.createJobExecution(attempt);
            launched = repository.claimExecutionOwner(created.id(), created.version(), identity.owner(), Instant.now());
        }
        audit.append(action, call, request, launched, "LAUNCHED execution " + launched.id() + " attempt "
                + launched.attempt() + " owner " + identity.owner());
        // a job listener's beforeJob runs before the first step starts (and may fail the job instead);
        // a plan this execution's parameters cannot resolve fails it before any step (ExecutionRunner)
        Optional<JobDefinition> resolved = atOnce ? ExecutionRunner.resolved(definition, parameters).plan()
                : Optional.empty();
        Optional<StepRunners.StepStart> firstStep = resolved.isPresent()
                && RestartPosition.of(repository, resolved.get(), launched, newInstance) instanceof Step step
                && !steps.listeners().forJob(definition).listensBeforeJob()
                        ? steps.startEagerly(step, launched, newInstance)
                        : Optional.empty();
        return new Launch(launched, definition, parameters, false, atOnce, firstStep, newInstance);
    }

    /**
     * A request launched already. If its launch committed but the caller never learnt it (a lost
     * commit acknowledgement), the attempt waits, STARTING, claimed by this process yet run by no
     * thread: the retried request runs it.
     */
    private Launch replayed(OperatorRecord record, JobDefinition definition, JobParameters parameters) {
        JobExecutionId id = record.target().jobExecutionId().orElseThrow();
        JobExecution launched = existing(id);
        boolean orphanedHere = launched.status().isActive() && running.find(id).isEmpty() && ownedHere(id);
        return new Launch(launched, definition, parameters, !orphanedHere, false, Optional.empty(), false);
    }

    /** Whether this process's owner token holds the active execution {@code id} (renewing its lease). */
    private boolean ownedHere(JobExecutionId id) {
        try {
            repository.observeExecutionControl(id, identity.owner(), Instant.now());
            return true;
        } catch (RepositoryException e) {
            if (e.error() == RepositoryError.OWNER_MISMATCH || e.error() == RepositoryError.EXECUTION_NOT_ACTIVE) {
                return false;
            }
            throw e;
        }
    }

    /**
     * Records a launch in the caller's transaction and runs it once that committed, or, without one,
     * in a transaction of its own and runs it at once.
     */
    private JobExecutionId launch(Supplier<Launch> inTransaction) {
        if (!caller.joins()) {
            return submit(QuarkusTransaction.requiringNew().call(inTransaction::get));
        }
        Launch launch = inTransaction.get();
        if (!launch.replayed()) {
            caller.submitAfterCommit(launch, this::submit);
        }
        return launch.execution().id();
    }

    /** Runs a launched attempt here, once the transaction that created it committed. */
    JobExecutionId submit(Launch launch) {
        if (!launch.replayed()) {
            running.submit(launch);
        }
        return launch.execution().id();
    }

    @Override
    public JobExecution await(JobExecutionId execution, Duration timeout) {
        Checks.notNull(timeout, "timeout");
        return awaitEnd(execution, Optional.of(timeout));
    }

    /**
     * Not a {@link KernelRepository} call, whose unit of work is the caller's transaction (SPEC §1):
     * a read of one row by its key, which a caller repeats while it waits, needs no unit of work. In
     * the caller's transaction it runs on the connection the transaction enlisted; without one, on an
     * autocommit connection of the repository's datasource: no Narayana transaction, no enlistment,
     * no commit (issue 29: two thirds of a poll's CPU).
     */
    @Override
    public Optional<JobExecution> execution(JobExecutionId execution) {
        Checks.notNull(execution, "execution");
        transactions.requireActiveOrNone("execution");
        return jobExecutions.get(execution);
    }

    @Override
    public void stop(JobExecutionId execution, OperatorCall call) {
        Checks.notNull(execution, "execution");
        Checks.notNull(call, "call");
        String request = "stop|execution=" + execution;
        caller.run(() -> {
            Optional<JobExecution> locked = repository.lockJobExecutionForDecision(execution);
            boolean recorded = audit.recorded(OperatorAction.STOP, call, request).isPresent();
            if (!recorded) {
                JobExecution current = locked.orElseThrow(() -> notFound(execution));
                JobExecution requested = repository.requestExecutionStop(execution, current.version(), call.actor(),
                        Instant.now());
                audit.append(OperatorAction.STOP, call, request, requested, "STOP_REQUESTED");
            }
        });
        // Here the signal is immediate; an owner elsewhere sees the request at its next chunk commit.
        caller.afterCommit(() -> running.find(execution).ifPresent(ExecutionHandle::requestStop));
    }

    @Override
    public JobExecution abandon(JobExecutionId execution, OperatorCall call) {
        Checks.notNull(execution, "execution");
        Checks.notNull(call, "call");
        String request = "abandon|execution=" + execution;
        return caller.call(() -> {
            JobExecution current = locked(execution);
            if (audit.recorded(OperatorAction.ABANDON, call, request).isPresent()) {
                return current;
            }
            requireLatest(current, "abandon");
            JobExecution abandoned = repository.transitionJobExecution(execution, current.version(),
                    LifecycleTransition.to(ExecutionStatus.ABANDONED, Instant.now()));
            audit.append(OperatorAction.ABANDON, call, request, abandoned, "ABANDONED");
            return abandoned;
        });
    }

    @Override
    public RecoveryResult recover(JobExecutionId execution, ExecutionVersion observedVersion,
            RecoveryResolution resolution, ReasonCode reason, OperatorCall call) {
        Checks.notNull(execution, "execution");
        Checks.notNull(call, "call");
        return recover(execution, observedVersion, resolution, reason, false, call);
    }

    @Override
    public RecoveryResult recover(JobExecutionId execution, ExecutionVersion observedVersion,
            RecoveryResolution resolution, ReasonCode reason, boolean ownerDeclaredDead, OperatorCall call) {
        Checks.notNull(execution, "execution");
        Checks.notNull(call, "call");
        RecoveryRequest recovery = new RecoveryRequest(call.operationId(), call.actor(), reason, resolution,
                observedVersion, Instant.now(), ownerDeclaredDead);
        if (running.find(execution).filter(handle -> handle.lostBecause().isEmpty()).isPresent()) {
            throw new RepositoryException(RepositoryError.EXECUTION_LEASE_LIVE, "job execution " + execution
                    + " runs in this process, which is alive: stop it instead of recovering it");
        }
        return caller.call(() -> audit.recover(execution, recovery,
                "RECOVERED as " + resolution));
    }

    /**
     * Refuses an attempt that a later attempt of its instance replaced: abandoning it would leave the
     * instance running under the later one, restarting it would skip what the later one recorded.
     */
    private void requireLatest(JobExecution attempt, String action) {
        JobExecution latest = repository.latestJobExecution(attempt.jobInstanceId()).orElseThrow();
        if (!latest.id().equals(attempt.id())) {
            throw new RepositoryException(RepositoryError.EXECUTION_SUPERSEDED, "cannot " + action + " job execution "
                    + attempt.id() + " (attempt " + attempt.attempt() + "): its instance's latest attempt is execution "
                    + latest.id() + " (attempt " + latest.attempt() + ", " + latest.status() + "); " + action
                    + " that one");
        }
    }

    private JobExecution existing(JobExecutionId id) {
        return repository.getJobExecution(id).orElseThrow(() -> notFound(id));
    }

    /** The execution, it and its instance locked for a decision (see the class comment). */
    private JobExecution locked(JobExecutionId id) {
        return repository.lockJobExecutionForDecision(id).orElseThrow(() -> notFound(id));
    }

    private static RepositoryException notFound(JobExecutionId id) {
        return new RepositoryException(RepositoryError.JOB_EXECUTION_NOT_FOUND, "job execution " + id
                + " does not exist");
    }

    private JobExecution awaitEnd(JobExecutionId id, Optional<Duration> timeout) {
        if (caller.launchedUncommitted(id)) {
            throw new IllegalStateException("job execution " + id + " was launched in the caller's transaction, "
                    + "which has not committed: it starts only once that transaction commits, so waiting for it here "
                    + "would wait forever; await it after the commit");
        }
        Instant deadline = timeout.map(Instant.now()::plus).orElse(Instant.MAX);
        try {
            Optional<ExecutionHandle> local = running.find(id);
            if (local.isPresent()) {
                return local.get().await(timeout.map(t -> Duration.between(Instant.now(), deadline))
                        .map(left -> left.isNegative() ? Duration.ZERO : left));
            }
            // Not running here (another process, or already ended): watch the repository.
            while (true) {
                // each read outside the caller's transaction, if it has one: it sees every commit
                JobExecution current = QuarkusTransaction.suspendingExisting()
                        .call(() -> execution(id).orElseThrow(() -> notFound(id)));
                if (!current.status().isActive()) {
                    return current;
                }
                if (Instant.now().isAfter(deadline)) {
                    throw new TimeoutException();
                }
                Thread.sleep(POLL.toMillis());
            }
        } catch (TimeoutException e) {
            throw new IllegalStateException("job execution " + id + " is still active after " + timeout.orElseThrow());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for job execution " + id, e);
        }
    }
}
