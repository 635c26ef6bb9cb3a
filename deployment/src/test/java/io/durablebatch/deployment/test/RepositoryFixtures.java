package io.durablebatch.deployment.test;

import static io.durablebatch.deployment.test.RepositoryTestSupport.freshKey;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.repository.ExecutionStatus.ABANDONED;
import static io.durablebatch.repository.ExecutionStatus.COMPLETED;
import static io.durablebatch.repository.ExecutionStatus.FAILED;
import static io.durablebatch.repository.ExecutionStatus.STARTED;
import static io.durablebatch.repository.ExecutionStatus.STOPPED;
import static io.durablebatch.repository.ExecutionStatus.STOPPING;
import static io.durablebatch.repository.ExecutionStatus.UNKNOWN;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.durablebatch.repository.ExecutionStatus;
import io.durablebatch.repository.JobExecution;
import io.durablebatch.repository.JobExecutionId;
import io.durablebatch.repository.JobInstance;
import io.durablebatch.repository.JobInstanceId;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.StepExecution;
import io.durablebatch.repository.StepName;

/**
 * Brings fresh instances, job executions and step executions into any status, through the legal
 * transitions of the lifecycle table only, each setup in one committed unit of work.
 */
@ApplicationScoped
public class RepositoryFixtures {

    private final JobRepository repository;

    RepositoryFixtures(JobRepository repository) {
        this.repository = repository;
    }

    /** The shortest legal path from STARTING to {@code status}. */
    private static List<ExecutionStatus> pathTo(ExecutionStatus status) {
        return switch (status) {
            case STARTING -> List.of();
            case STARTED -> List.of(STARTED);
            case STOPPING -> List.of(STARTED, STOPPING);
            case STOPPED -> List.of(STOPPED);
            case FAILED -> List.of(FAILED);
            case COMPLETED -> List.of(STARTED, COMPLETED);
            case ABANDONED -> List.of(FAILED, ABANDONED);
            case UNKNOWN -> List.of(STARTED, UNKNOWN);
        };
    }

    /** A new instance of a job nobody else uses, without attempts. */
    public JobInstance newInstance(String job) {
        return tx(() -> repository.selectOrCreateJobInstance(freshKey(job)).instance());
    }

    /** The first attempt of a new instance, in {@code status}. */
    public JobExecution jobExecutionIn(ExecutionStatus status) {
        return attemptIn(newInstance("job-" + status.name().toLowerCase()).id(), status);
    }

    /** A new attempt of {@code instance}, in {@code status}. */
    public JobExecution attemptIn(JobInstanceId instance, ExecutionStatus status) {
        return tx(() -> drive(repository.createJobExecution(instance), status));
    }

    /** Moves {@code execution} from STARTING to {@code status}, in the caller's unit of work. */
    public JobExecution drive(JobExecution execution, ExecutionStatus status) {
        JobExecution current = execution;
        for (ExecutionStatus next : pathTo(status)) {
            current = repository.transitionJobExecution(current.id(), current.version(),
                    LifecycleTransition.to(next, now()));
        }
        assertEquals(status, current.status());
        return current;
    }

    /** A step execution of a new STARTED job execution, in {@code status}. */
    public StepExecution stepExecutionIn(ExecutionStatus status) {
        return stepIn(jobExecutionIn(STARTED).id(), "step-" + status.name().toLowerCase(), status);
    }

    /** A new step execution of {@code jobExecution}, in {@code status}. */
    public StepExecution stepIn(JobExecutionId jobExecution, String stepName, ExecutionStatus status) {
        return tx(() -> {
            StepExecution current = repository.createStepExecution(jobExecution, StepName.of(stepName));
            for (ExecutionStatus next : pathTo(status)) {
                current = repository.transitionStepExecution(current.id(), current.version(),
                        LifecycleTransition.to(next, now()));
            }
            assertEquals(status, current.status());
            return current;
        });
    }
}
