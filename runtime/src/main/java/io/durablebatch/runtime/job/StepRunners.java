package io.durablebatch.runtime.job;

import java.time.Instant;
import java.util.Optional;

import jakarta.enterprise.inject.Instance;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.job.ChunkStep;
import io.durablebatch.job.PartitionedStep;
import io.durablebatch.job.Step;
import io.durablebatch.job.TaskletStep;
import io.durablebatch.listener.StepEvent;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.DurableBatchConfig;
import io.durablebatch.runtime.metrics.KernelMetrics;
import io.durablebatch.runtime.observe.ExecutionObserver;
import io.durablebatch.runtime.observe.ExecutionObservers;
import io.durablebatch.runtime.partition.PartitionLeaseStore;

/**
 * Starts a step node's attempt and hands it to the runner of its kind. On a restart, a node whose
 * latest attempt (in an earlier execution) COMPLETED is not run again unless it allows it: its
 * recorded outcome is reused. Any other node resumes its latest attempt: from its checkpoint, which
 * the new attempt records as it starts (so it survives a crash before the first chunk), or, for a
 * partitioned step, from its partition plan.
 */
@Singleton
public class StepRunners {

    private static final Logger LOG = Logger.getLogger(StepRunners.class);

    private final KernelRepository repository;
    private final FlowStepHistory history;
    private final StepLeases leases;
    private final Bookkeeping bookkeeping;
    private final TaskletStepRunner tasklets = new TaskletStepRunner();
    private final ChunkStepRunner chunks;
    private final PartitionWorker partitionWorker;
    private final PartitionedStepRunner partitions;
    private final KernelListeners listeners;
    private final ExecutionObservers observers;

    StepRunners(KernelRepository repository, FlowStepHistory history, StepLeases leases, PartitionLeaseStore partitionLeases,
            DurableBatchConfig config, RunningStepInputs inputs, Instance<ChunkFaults> faults,
            Instance<KernelMetrics> metrics, KernelListeners listeners, ExecutionObservers observers) {
        this.repository = repository;
        this.observers = observers;
        this.listeners = listeners;
        this.leases = leases;
        this.bookkeeping = new Bookkeeping(config.lease().duration());
        this.history = history;
        this.chunks = new ChunkStepRunner(new ProgressLog.Factory(config.progress().logInterval()), inputs,
                faults.isResolvable() ? faults.get() : null, observers.withChunks(KernelMetrics.of(metrics)));
        this.partitionWorker = new PartitionWorker(repository, partitionLeases, this);
        this.partitions = new PartitionedStepRunner(repository, partitionLeases, partitionWorker,
                config.partitions().localWorkers(), config.control().pollInterval(), observers);
    }

    /** How the kernel retries its own records: for as long as a lease lasts. */
    Bookkeeping bookkeeping() {
        return bookkeeping;
    }

    /** The listeners of job executions and step attempts. */
    KernelListeners listeners() {
        return listeners;
    }

    /** The worker side of partitioned steps, shared by local and remote workers. */
    PartitionWorker partitionWorker() {
        return partitionWorker;
    }

    /**
     * The start of a step node: a running attempt (and the earlier attempt it resumes), or the
     * reused outcome of a completed one.
     */
    record StepStart(Step step, Optional<StepExecution> running, Optional<StepExecution> resumes,
            Optional<StepExecution> reused) {
    }

    /**
     * Runs a step node to its end: started here in its own transaction, or {@code begun} already in
     * the transaction that led to it. {@code completion} joins the transaction of its completion.
     */
    StepOutcome run(Step step, JobContextImpl job, JobExecution execution, StopSignal control,
            Optional<StepStart> begun, StepAttempt.Completion completion) {
        JobName jobName = job.jobName();
        StepStart start = begun.filter(started -> started.step() == step).orElseGet(() -> bookkeeping
                .record("the start of step '" + step.name() + "'", () -> start(step, execution, false)));
        if (start.reused().isPresent()) {
            LOG.infof("Step '%s' of job '%s' completed in an earlier execution: its outcome %s is reused",
                    step.name(), jobName, start.reused().get().exitStatus().code());
            return StepOutcome.reusedFrom(start.reused().get());
        }
        StepExecution running = start.running().orElseThrow();
        StepContextImpl context = new StepContextImpl(job, running, step, start.resumes().isPresent());
        LOG.debugf("Step '%s' of job '%s' starts as step execution %s%s", step.name(), jobName, running.id(),
                start.resumes().map(previous -> ", resuming step execution " + previous.id()).orElse(""));
        StepAttempt attempt = new StepAttempt(repository, bookkeeping, step, context, start.resumes(), control, running);
        attempt.completedWith(completion);
        return run(attempt);
    }

    /**
     * Starts {@code step} in the caller's transaction, if it is a step whose start can join it (a
     * tasklet or chunk step; a partitioned step plans first) and the start limit lets it start: a
     * refused start is left to the step's own transaction, which records why. {@code newInstance}
     * says the instance was created in this transaction, so the node has no history to look up.
     */
    Optional<StepStart> startEagerly(Step step, JobExecution execution, boolean newInstance) {
        if (step instanceof PartitionedStep) {
            return Optional.empty();
        }
        try {
            return Optional.of(start(step, execution, newInstance));
        } catch (RepositoryException e) {
            // found by reading, not by a failed statement: the transaction goes on
            if (e.error() == RepositoryError.START_LIMIT_EXCEEDED) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /**
     * Runs a started attempt (of a node, or of a partition's worker) to its end, between its step
     * listeners' {@code beforeStep} (one that throws fails the step before its work opens) and
     * {@code afterStep} (with the recorded end).
     */
    StepOutcome run(StepAttempt attempt) {
        StepExecutionId id = attempt.snapshot().id();
        StepCallbacks callbacks = listeners.forStep(attempt.context().jobName(), attempt.step());
        attempt.listenedBy(callbacks);
        leases.hold(id, attempt);
        ExecutionObserver.Observation<StepExecution> observed = observers
                .step(new ExecutionObserver.ObservedStep(attempt.context(), attempt.snapshot(),
                        attempt.step() instanceof PartitionedStep));
        try {
            StepOutcome outcome;
            try {
                callbacks.beforeStep(new StepEvent(attempt.context(), attempt.snapshot()));
            } catch (RuntimeException | Error e) {
                outcome = attempt.fail(e, attempt.counters());
                callbacks.afterStep(new StepEvent(attempt.context(), outcome.execution()));
                observed.ended(outcome.execution());
                return outcome;
            }
            outcome = runListened(attempt);
            callbacks.afterStep(new StepEvent(attempt.context(), outcome.execution()));
            observed.ended(outcome.execution());
            return outcome;
        } catch (RuntimeException | Error e) {
            observed.failed(e);
            throw e;
        } finally {
            observed.close();
            leases.release(id);
        }
    }

    private StepOutcome runListened(StepAttempt attempt) {
        Step step = attempt.step();
        if (step instanceof ChunkStep<?, ?>) {
            return chunks.run(attempt);
        } else if (step instanceof TaskletStep) {
            return tasklets.run(attempt);
        } else if (step instanceof PartitionedStep) {
            return partitions.run(attempt);
        }
        throw new IllegalStateException("no runner for " + step);
    }

    private StepStart start(Step step, JobExecution execution, boolean newInstance) {
        Optional<StepExecution> latest = newInstance ? Optional.empty() : history.latestAttempt(execution, step);
        if (latest.isPresent() && latest.get().jobExecutionId().equals(execution.id()) && latest.get().status().isActive()) {
            // an earlier try of this start committed but its acknowledgement was lost: a node runs once
            // per execution, so the attempt is ours. It resumes its own recorded checkpoint; a
            // partitioned step, the plan of the attempt an earlier execution left unfinished.
            return new StepStart(step, latest, step instanceof PartitionedStep ? unfinishedEarlier(execution, step)
                    : latest, Optional.empty());
        }
        if (latest.isPresent() && latest.get().status() == ExecutionStatus.COMPLETED
                && !latest.get().jobExecutionId().equals(execution.id()) && !step.settings().allowStartIfComplete()) {
            return new StepStart(step, Optional.empty(), Optional.empty(), latest);
        }
        Optional<StepExecution> resumes = latest.filter(attempt -> attempt.status() != ExecutionStatus.COMPLETED);
        return new StepStart(step, Optional.of(history.startAttempt(execution, step,
                resumes.flatMap(StepExecution::checkpoint))), resumes, Optional.empty());
    }

    /** The latest attempt of {@code step} in an earlier execution of the instance, unless it completed. */
    private Optional<StepExecution> unfinishedEarlier(JobExecution execution, Step step) {
        return repository.latestStepExecutionBefore(execution.jobInstanceId(), step.name(), execution.id())
                .filter(found -> found.status() != ExecutionStatus.COMPLETED);
    }

    /** Moves a new attempt to STARTED, recording the checkpoint it resumes. Joins the caller's transaction. */
    StepExecution started(StepExecution created, Optional<Checkpoint> resumeFrom) {
        LifecycleTransition started = LifecycleTransition.to(ExecutionStatus.STARTED, Instant.now());
        return repository.transitionStepExecution(created.id(), created.version(),
                resumeFrom.map(started::withCheckpoint).orElse(started));
    }
}
