package io.durablebatch.runtime.job;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeoutException;

import jakarta.inject.Singleton;

import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.JobOperator;
import io.durablebatch.job.JobParameters;
import io.durablebatch.job.OperatorCall;
import io.durablebatch.repository.ExecutionStatus;
import io.durablebatch.repository.ExecutionVersion;
import io.durablebatch.repository.JobExecution;
import io.durablebatch.repository.JobExecutionId;
import io.durablebatch.repository.JobInstance;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.ReasonCode;
import io.durablebatch.repository.RecoveryRequest;
import io.durablebatch.repository.RecoveryResolution;
import io.durablebatch.repository.RecoveryResult;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.runtime.Checks;
import io.quarkus.narayana.jta.QuarkusTransaction;

/** The kernel's {@link JobOperator}: records each attempt in its own transaction, then runs it here. */
@Singleton
public class KernelJobOperator implements JobOperator {

    private static final Duration POLL = Duration.ofMillis(100);

    private final JobRegistry registry;
    private final JobRepository repository;
    private final RunningExecutions running;

    KernelJobOperator(JobRegistry registry, JobRepository repository, RunningExecutions running) {
        this.registry = registry;
        this.repository = repository;
        this.running = running;
    }

    @Override
    public JobExecutionId start(String jobName, JobParameters parameters, OperatorCall call) {
        Checks.notNull(jobName, "jobName");
        Checks.notNull(parameters, "parameters");
        Checks.notNull(call, "call");
        JobDefinition definition = registry.get(jobName);
        JobExecution execution = QuarkusTransaction.requiringNew().call(() -> repository.createJobExecution(
                repository.selectOrCreateJobInstance(parameters.keyFor(definition.name())).instance().id(),
                definition.identity()));
        running.submit(execution, definition, parameters);
        return execution.id();
    }

    @Override
    public JobExecution runAndWait(String jobName, JobParameters parameters, OperatorCall call) {
        return awaitEnd(start(jobName, parameters, call), Optional.empty());
    }

    @Override
    public JobExecutionId restart(JobExecutionId executionId, OperatorCall call) {
        Checks.notNull(executionId, "execution");
        Checks.notNull(call, "call");
        record Restart(JobExecution execution, JobDefinition definition, JobParameters parameters) {
        }
        Restart restart = QuarkusTransaction.requiringNew().call(() -> {
            JobExecution previous = existing(executionId);
            JobInstance instance = repository.getJobInstance(previous.jobInstanceId()).orElseThrow();
            JobDefinition definition = registry.get(instance.jobName().value());
            return new Restart(repository.createJobExecution(instance.id(), definition.identity()), definition,
                    JobParameters.of(instance.key()));
        });
        running.submit(restart.execution(), restart.definition(), restart.parameters());
        return restart.execution().id();
    }

    @Override
    public JobExecution await(JobExecutionId execution, Duration timeout) {
        Checks.notNull(timeout, "timeout");
        return awaitEnd(execution, Optional.of(timeout));
    }

    @Override
    public void stop(JobExecutionId execution, OperatorCall call) {
        Checks.notNull(execution, "execution");
        Checks.notNull(call, "call");
        ExecutionHandle handle = running.find(execution).orElseThrow(() -> new IllegalStateException("job execution "
                + execution + " does not run in this process"));
        handle.requestStop();
    }

    @Override
    public JobExecution abandon(JobExecutionId execution, OperatorCall call) {
        Checks.notNull(execution, "execution");
        Checks.notNull(call, "call");
        return QuarkusTransaction.requiringNew().call(() -> {
            JobExecution current = existing(execution);
            return repository.transitionJobExecution(execution, current.version(),
                    LifecycleTransition.to(ExecutionStatus.ABANDONED, Instant.now()));
        });
    }

    @Override
    public RecoveryResult recover(JobExecutionId execution, ExecutionVersion observedVersion,
            RecoveryResolution resolution, ReasonCode reason, OperatorCall call) {
        Checks.notNull(execution, "execution");
        Checks.notNull(call, "call");
        RecoveryRequest request = new RecoveryRequest(call.operationId(), call.actor(), reason, resolution,
                observedVersion, Instant.now());
        if (running.find(execution).isPresent()) {
            throw new IllegalStateException("job execution " + execution + " runs in this process: its owner is alive, "
                    + "stop it instead of recovering it");
        }
        return QuarkusTransaction.requiringNew().call(() -> repository.recoverJobExecution(execution, request));
    }

    private JobExecution existing(JobExecutionId id) {
        return repository.getJobExecution(id).orElseThrow(() -> new RepositoryException(
                RepositoryError.JOB_EXECUTION_NOT_FOUND, "job execution " + id + " does not exist"));
    }

    private JobExecution awaitEnd(JobExecutionId id, Optional<Duration> timeout) {
        Instant deadline = timeout.map(Instant.now()::plus).orElse(Instant.MAX);
        try {
            Optional<ExecutionHandle> local = running.find(id);
            if (local.isPresent()) {
                return local.get().await(timeout.map(t -> Duration.between(Instant.now(), deadline))
                        .map(left -> left.isNegative() ? Duration.ZERO : left));
            }
            // Not running here (another process, or already ended): watch the repository.
            while (true) {
                JobExecution current = QuarkusTransaction.requiringNew().call(() -> existing(id));
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
