package io.durablebatch.benchmarks;

import static io.durablebatch.execution.ExecutionStatus.COMPLETED;
import static io.durablebatch.execution.ExecutionStatus.STARTED;

import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;

import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobInstanceKey;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepName;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.spi.KernelRepository;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * The repository's share of launching a one-step job, grouped into units of work as the kernel
 * commits them. Two commits per launch:
 * <ol>
 * <li><b>start</b>: select or create the instance, create the execution, job to STARTED, create
 * the step execution, step to STARTED. The launch becomes durable all at once: no instance
 * without an execution, no running job without its running step, whatever fails.</li>
 * <li><b>complete</b>: step to COMPLETED, job to COMPLETED. The step's end and the job's end commit
 * together, so no job is left STARTED behind a finished last step.</li>
 * </ol>
 * The step's own work (its chunks, each a unit of work of its own) happens between the two; this
 * one-step job has none, which isolates the repository's cost.
 */
@ApplicationScoped
class LaunchPath {

    static final StepName STEP = StepName.of("work");

    /** A launched job and its running step, as the first unit of work committed them. */
    record Launch(JobExecution job, StepExecution step) {
    }

    private final KernelRepository repository;

    LaunchPath(KernelRepository repository) {
        this.repository = repository;
    }

    /** Both units of work: the job ends COMPLETED. */
    JobExecution launch(JobInstanceKey key) {
        return complete(start(key));
    }

    Launch start(JobInstanceKey key) {
        return QuarkusTransaction.requiringNew().call(() -> {
            var instance = repository.selectOrCreateJobInstance(key).instance();
            JobExecution created = repository.createJobExecution(JobExecutionRequest.of(instance.id()));
            JobExecution job = repository.transitionJobExecution(created.id(), created.version(),
                    LifecycleTransition.to(STARTED, Instant.now()));
            StepExecution createdStep = repository.createStepExecution(job.id(), STEP);
            StepExecution step = repository.transitionStepExecution(createdStep.id(), createdStep.version(),
                    LifecycleTransition.to(STARTED, Instant.now()));
            return new Launch(job, step);
        });
    }

    JobExecution complete(Launch launch) {
        return QuarkusTransaction.requiringNew().call(() -> {
            Instant now = Instant.now();
            repository.transitionStepExecution(launch.step().id(), launch.step().version(),
                    LifecycleTransition.to(COMPLETED, now));
            return repository.transitionJobExecution(launch.job().id(), launch.job().version(),
                    LifecycleTransition.to(COMPLETED, now));
        });
    }
}
