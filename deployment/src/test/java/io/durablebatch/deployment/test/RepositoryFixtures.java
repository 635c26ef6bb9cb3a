package io.durablebatch.deployment.test;

import static io.durablebatch.deployment.test.RepositoryTestSupport.freshKey;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.execution.ExecutionStatus.COMPLETED;
import static io.durablebatch.execution.ExecutionStatus.STARTED;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstance;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobInstanceKey;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepName;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.control.OwnerToken;
import io.durablebatch.repository.spi.KernelRepository;

/**
 * Brings fresh instances, job executions and step executions into any status, through the legal
 * transitions of the {@link LifecycleTable} only (the shortest path from where they are), each setup
 * in one committed unit of work unless it says otherwise.
 */
@ApplicationScoped
public class RepositoryFixtures {

    private final KernelRepository repository;

    RepositoryFixtures(KernelRepository repository) {
        this.repository = repository;
    }

    public KernelRepository repository() {
        return repository;
    }

    /** A new instance of a job nobody else uses, without attempts. */
    public JobInstance newInstance(String job) {
        return tx(() -> repository.selectOrCreateJobInstance(freshKey(job)).instance());
    }

    /** The first attempt of a new instance, in {@code status}. */
    public JobExecution jobExecutionIn(ExecutionStatus status) {
        return jobExecutionIn("job-" + status.name().toLowerCase(), status);
    }

    /** The first attempt of a new instance of a fresh job named after {@code job}, in {@code status}. */
    public JobExecution jobExecutionIn(String job, ExecutionStatus status) {
        return attemptIn(newInstance(job).id(), status);
    }

    /** A new attempt of {@code instance}, in {@code status}. */
    public JobExecution attemptIn(JobInstanceId instance, ExecutionStatus status) {
        return tx(() -> drive(repository.createJobExecution(JobExecutionRequest.of(instance)), status));
    }

    /** Moves {@code execution} from its status to {@code status}, in the caller's unit of work. */
    public JobExecution drive(JobExecution execution, ExecutionStatus status) {
        JobExecution current = execution;
        for (ExecutionStatus next : LifecycleTable.path(execution.status(), status)) {
            current = repository.transitionJobExecution(current.id(), current.version(),
                    LifecycleTransition.to(next, now()));
        }
        assertEquals(status, current.status());
        return current;
    }

    /** Moves {@code execution} from its status to {@code status}, in its own unit of work. */
    public JobExecution move(JobExecution execution, ExecutionStatus status) {
        return tx(() -> drive(execution, status));
    }

    /** The first attempt of a new instance, claimed by {@code owner} while STARTING, then in {@code status}. */
    public JobExecution ownedBy(OwnerToken owner, ExecutionStatus status) {
        JobInstanceId instance = newInstance("owned").id();
        return tx(() -> {
            JobExecution starting = repository.createJobExecution(JobExecutionRequest.of(instance));
            return drive(repository.claimExecutionOwner(starting.id(), starting.version(), owner, now()), status);
        });
    }

    /**
     * A new instance of {@code job} with one execution per status in {@code outcomes}, in that order,
     * each STARTED with {@code steps} completed steps before it ends; all in one unit of work.
     */
    public JobInstance instanceWithHistory(JobName job, int steps, ExecutionStatus... outcomes) {
        return tx(() -> {
            JobInstance instance = repository.selectOrCreateJobInstance(
                    JobInstanceKey.of(job, Map.of("run", UUID.randomUUID().toString()))).instance();
            for (ExecutionStatus outcome : outcomes) {
                JobExecution execution = drive(repository.createJobExecution(JobExecutionRequest.of(instance.id())), STARTED);
                for (int s = 0; s < steps; s++) {
                    driveStep(repository.createStepExecution(execution.id(), StepName.of("step-" + s)), COMPLETED);
                }
                drive(execution, outcome);
            }
            return instance;
        });
    }

    /** A step execution of a new STARTED job execution, in {@code status}. */
    public StepExecution stepExecutionIn(ExecutionStatus status) {
        return stepIn(jobExecutionIn(STARTED).id(), "step-" + status.name().toLowerCase(), status);
    }

    /** A new step execution of {@code jobExecution}, in {@code status}. */
    public StepExecution stepIn(JobExecutionId jobExecution, String stepName, ExecutionStatus status) {
        return tx(() -> driveStep(repository.createStepExecution(jobExecution, StepName.of(stepName)), status));
    }

    /** Applies {@code transition} to {@code step}, in its own unit of work. */
    public StepExecution move(StepExecution step, LifecycleTransition transition) {
        return tx(() -> repository.transitionStepExecution(step.id(), step.version(), transition));
    }

    /**
     * Ends {@code step} with {@code status} (through STOPPING for a STARTED step that stops), recording
     * the exit code and counters with the last transition; in its own unit of work.
     */
    public StepExecution endStep(StepExecution step, ExecutionStatus status, String exitCode, StepCounters counters) {
        return tx(() -> {
            List<ExecutionStatus> path = LifecycleTable.path(step.status(), status);
            StepExecution current = driveStep(step, path.size() > 1 ? path.get(path.size() - 2) : step.status());
            return repository.transitionStepExecution(current.id(), current.version(), LifecycleTransition.to(status,
                    now()).withExitStatus(new ExitStatus(exitCode, "ended as " + exitCode)).withCounters(counters));
        });
    }

    private StepExecution driveStep(StepExecution step, ExecutionStatus status) {
        StepExecution current = step;
        for (ExecutionStatus next : LifecycleTable.path(step.status(), status)) {
            current = repository.transitionStepExecution(current.id(), current.version(),
                    LifecycleTransition.to(next, now()));
        }
        assertEquals(status, current.status());
        return current;
    }
}
