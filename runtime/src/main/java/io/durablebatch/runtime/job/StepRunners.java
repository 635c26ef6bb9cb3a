package io.durablebatch.runtime.job;

import java.time.Instant;
import java.util.Optional;

import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.durablebatch.job.ChunkStep;
import io.durablebatch.job.JobParameters;
import io.durablebatch.job.Step;
import io.durablebatch.job.TaskletStep;
import io.durablebatch.repository.Checkpoint;
import io.durablebatch.repository.ExecutionStatus;
import io.durablebatch.repository.JobExecution;
import io.durablebatch.repository.JobName;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.StepExecution;
import io.durablebatch.runtime.DurableBatchConfig;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * Starts a step node's attempt and hands it to the runner of its kind. On a restart, a node whose
 * latest attempt (in an earlier execution) COMPLETED is not run again unless it allows it: its
 * recorded outcome is reused. Any other node resumes from the checkpoint of its latest attempt,
 * which the new attempt records as it starts, so the checkpoint survives a crash before its first
 * chunk.
 */
@Singleton
public class StepRunners {

    private static final Logger LOG = Logger.getLogger(StepRunners.class);

    private final JobRepository repository;
    private final StepHistory history;
    private final TaskletStepRunner tasklets = new TaskletStepRunner();
    private final ChunkStepRunner chunks;

    StepRunners(JobRepository repository, FlowStepHistory history, DurableBatchConfig config) {
        this.repository = repository;
        this.history = history;
        this.chunks = new ChunkStepRunner(new ProgressLog.Factory(config.progress().logInterval()));
    }

    /** The result of starting a node: a running attempt, or the reused outcome of a completed one. */
    private record Start(Optional<StepExecution> running, Optional<Checkpoint> resumeFrom, Optional<StepExecution> reused) {
    }

    StepOutcome run(Step step, JobName jobName, JobParameters parameters, JobExecution execution,
            StopSignal control) {
        Start start = QuarkusTransaction.requiringNew().call(() -> start(step, execution));
        if (start.reused().isPresent()) {
            LOG.infof("Step '%s' of job '%s' completed in an earlier execution: its outcome %s is reused",
                    step.name(), jobName, start.reused().get().exitStatus().code());
            return StepOutcome.reusedFrom(start.reused().get());
        }
        StepExecution running = start.running().orElseThrow();
        StepContextImpl context = new StepContextImpl(jobName, parameters, execution, running, step,
                start.resumeFrom().isPresent());
        StepAttempt attempt = new StepAttempt(repository, step, context, start.resumeFrom(), control, running);
        LOG.debugf("Step '%s' of job '%s' starts as step execution %s%s", step.name(), jobName, running.id(),
                start.resumeFrom().map(c -> ", resuming " + c).orElse(""));
        if (step instanceof ChunkStep<?, ?>) {
            return chunks.run(attempt);
        } else if (step instanceof TaskletStep) {
            return tasklets.run(attempt);
        }
        throw new IllegalStateException("no runner for " + step);
    }

    private Start start(Step step, JobExecution execution) {
        Optional<StepExecution> latest = history.latestAttempt(execution, step);
        if (latest.isPresent() && latest.get().status() == ExecutionStatus.COMPLETED
                && !latest.get().jobExecutionId().equals(execution.id()) && !step.settings().allowStartIfComplete()) {
            return new Start(Optional.empty(), Optional.empty(), latest);
        }
        Optional<Checkpoint> resumeFrom = latest.filter(attempt -> attempt.status() != ExecutionStatus.COMPLETED)
                .flatMap(StepExecution::checkpoint);
        StepExecution created = history.createAttempt(execution, step);
        LifecycleTransition started = LifecycleTransition.to(ExecutionStatus.STARTED, Instant.now());
        StepExecution running = repository.transitionStepExecution(created.id(), created.version(),
                resumeFrom.map(started::withCheckpoint).orElse(started));
        return new Start(Optional.of(running), resumeFrom, Optional.empty());
    }
}
