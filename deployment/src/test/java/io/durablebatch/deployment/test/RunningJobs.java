package io.durablebatch.deployment.test;

import static io.durablebatch.deployment.test.RepositoryTestSupport.freshKey;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;

import java.util.function.BooleanSupplier;

import io.durablebatch.repository.ExecutionStatus;
import io.durablebatch.repository.ExitStatus;
import io.durablebatch.repository.JobExecution;
import io.durablebatch.repository.JobInstanceId;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.StepCounters;
import io.durablebatch.repository.StepExecution;
import io.durablebatch.repository.StepName;
import io.quarkus.narayana.jta.QuarkusTransaction;

/** Job and step executions in the states the flow and partition tests start from, each step committed. */
public final class RunningJobs {

    private RunningJobs() {
    }

    /** Runs {@code work} in a unit of work that then rolls back. */
    public static void rolledBack(Runnable work) {
        commitIf(() -> {
            work.run();
            return false;
        });
    }

    /** Runs {@code work} in its own unit of work, committed if it returns true and rolled back otherwise. */
    public static boolean commitIf(BooleanSupplier work) {
        try {
            QuarkusTransaction.requiringNew().run(() -> {
                if (!work.getAsBoolean()) {
                    throw new RolledBack();
                }
            });
            return true;
        } catch (RolledBack expected) {
            return false;
        }
    }

    private static final class RolledBack extends RuntimeException {
        private static final long serialVersionUID = 1L;
    }

    /** The first attempt of a fresh instance, STARTED. */
    public static JobExecution startFresh(JobRepository repository, String job) {
        JobInstanceId instance = tx(() -> repository.selectOrCreateJobInstance(freshKey(job))).instance().id();
        return restart(repository, instance);
    }

    /** A new attempt of {@code instance}, STARTED. */
    public static JobExecution restart(JobRepository repository, JobInstanceId instance) {
        JobExecution created = tx(() -> repository.createJobExecution(instance));
        return moveJob(repository, created, ExecutionStatus.STARTED);
    }

    public static JobExecution moveJob(JobRepository repository, JobExecution execution, ExecutionStatus target) {
        return tx(() -> repository.transitionJobExecution(execution.id(), execution.version(),
                LifecycleTransition.to(target, now())));
    }

    /** Fails a running job execution (through STOPPING for STOPPED), so its instance may restart. */
    public static JobExecution endJob(JobRepository repository, JobExecution execution, ExecutionStatus end) {
        JobExecution current = execution;
        if (end == ExecutionStatus.STOPPED && current.status() == ExecutionStatus.STARTED) {
            current = moveJob(repository, current, ExecutionStatus.STOPPING);
        }
        return moveJob(repository, current, end);
    }

    /** A new step attempt of a running job execution, STARTED. */
    public static StepExecution startStep(JobRepository repository, JobExecution execution, String name) {
        StepExecution created = tx(() -> repository.createStepExecution(execution.id(), StepName.of(name)));
        return moveStep(repository, created, LifecycleTransition.to(ExecutionStatus.STARTED, now()));
    }

    public static StepExecution moveStep(JobRepository repository, StepExecution step, LifecycleTransition transition) {
        return tx(() -> repository.transitionStepExecution(step.id(), step.version(), transition));
    }

    /**
     * Ends a STARTED step with {@code status} (through STOPPING for STOPPED), recording the exit code
     * and counters.
     */
    public static StepExecution endStep(JobRepository repository, StepExecution step, ExecutionStatus status,
            String exitCode, StepCounters counters) {
        StepExecution current = step;
        if (status == ExecutionStatus.STOPPED) {
            current = moveStep(repository, current, LifecycleTransition.to(ExecutionStatus.STOPPING, now()));
        }
        return moveStep(repository, current, LifecycleTransition.to(status, now())
                .withExitStatus(new ExitStatus(exitCode, "ended as " + exitCode)).withCounters(counters));
    }
}
