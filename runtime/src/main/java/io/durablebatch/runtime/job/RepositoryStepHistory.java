package io.durablebatch.runtime.job;

import java.util.List;
import java.util.Optional;

import jakarta.inject.Singleton;

import io.durablebatch.job.Step;
import io.durablebatch.repository.JobExecution;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.StepExecution;

/**
 * Node history from the repository core: a node's attempts are the step executions that carry its
 * step name (step names are unique within a job definition), found newest execution first.
 */
@Singleton
public class RepositoryStepHistory implements StepHistory {

    private final JobRepository repository;

    RepositoryStepHistory(JobRepository repository) {
        this.repository = repository;
    }

    @Override
    public Optional<StepExecution> latestAttempt(JobExecution execution, Step step) {
        List<JobExecution> attempts = repository.jobExecutions(execution.jobInstanceId());
        for (int i = attempts.size() - 1; i >= 0; i--) {
            List<StepExecution> steps = repository.stepExecutions(attempts.get(i).id());
            for (int j = steps.size() - 1; j >= 0; j--) {
                if (steps.get(j).stepName().equals(step.name())) {
                    return Optional.of(steps.get(j));
                }
            }
        }
        return Optional.empty();
    }

    @Override
    public StepExecution createAttempt(JobExecution execution, Step step) {
        return repository.createStepExecution(execution.id(), step.name());
    }
}
