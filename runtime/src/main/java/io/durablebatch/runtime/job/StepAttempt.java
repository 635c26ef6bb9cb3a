package io.durablebatch.runtime.job;

import java.time.Instant;
import java.util.Optional;

import org.jboss.logging.Logger;

import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.ExecutionFailure;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.job.Step;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.StepProgress;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.sql.TransientFailures;

/**
 * One running attempt of a step: its latest committed snapshot (whose version the next
 * compare-and-swap expects), its committed counters, its context and the checkpoint it resumes.
 * Methods named {@code record*} join the caller's transaction; the others open their own.
 */
final class StepAttempt {

    private static final Logger LOG = Logger.getLogger(StepAttempt.class);

    private final KernelRepository repository;
    private final Bookkeeping bookkeeping;
    private final Step step;
    private final StepContextImpl context;
    private final Optional<StepExecution> resumes;
    private final Optional<Checkpoint> resumeFrom;
    private final StopSignal control;
    private StepExecution snapshot;
    private StepCounters counters = StepCounters.ZERO;
    private StepCallbacks callbacks = StepCallbacks.NONE;
    private Completion completion = Completion.NONE;

    /** What else the transaction of the step's completion records. */
    @FunctionalInterface
    interface Completion {

        Completion NONE = (running, exitStatus, lastWord) -> {
        };

        /**
         * Called inside the completion's transaction just before the completion is recorded, with the
         * running snapshot and the exit status it completes with: what it records locks the job
         * execution's row before the completion locks the step's, the order in which every other
         * transaction of the kernel, the heartbeat's included, takes them, so that none deadlocks.
         * {@code lastWord} says that nothing of the attempt runs after its completion commits (no step
         * or chunk listener), so nothing it could set then is lost to what commits with it.
         */
        void recordWith(StepExecution running, ExitStatus exitStatus, boolean lastWord);
    }

    /** An attempt of a flow node, resuming the node's unfinished latest attempt if there is one. */
    StepAttempt(KernelRepository repository, Bookkeeping bookkeeping, Step step, StepContextImpl context,
            Optional<StepExecution> resumes, StopSignal control, StepExecution started) {
        this(repository, bookkeeping, step, context, resumes, resumes.flatMap(StepExecution::checkpoint), control,
                started);
    }

    /**
     * An attempt resuming a checkpoint (a partition's worker resumes the previous worker of its
     * partition), whose records are retried for {@code bookkeeping}'s budget.
     */
    StepAttempt(KernelRepository repository, Bookkeeping bookkeeping, Step step, StepContextImpl context,
            Optional<StepExecution> resumes, Optional<Checkpoint> resumeFrom, StopSignal control, StepExecution started) {
        this.repository = repository;
        this.bookkeeping = bookkeeping;
        this.step = step;
        this.context = context;
        this.resumes = resumes;
        this.resumeFrom = resumeFrom;
        this.control = control;
        this.snapshot = started;
    }

    Step step() {
        return step;
    }

    StepContextImpl context() {
        return context;
    }

    /** The node's previous, unfinished attempt that this one resumes, if any. */
    Optional<StepExecution> resumes() {
        return resumes;
    }

    /** The checkpoint of the node's previous attempt that this one resumes, if any. */
    Optional<Checkpoint> resumeFrom() {
        return resumeFrom;
    }

    StopSignal control() {
        return control;
    }

    /** The listeners of this attempt; none until {@link StepRunners} sets them. */
    StepCallbacks callbacks() {
        return callbacks;
    }

    void listenedBy(StepCallbacks callbacks) {
        this.callbacks = callbacks;
    }

    /** What commits together with this attempt's completion; nothing else unless set. */
    void completedWith(Completion completion) {
        this.completion = completion;
    }

    StepExecution snapshot() {
        return snapshot;
    }

    /** The counters committed so far by this attempt. */
    StepCounters counters() {
        return counters;
    }

    /**
     * Records a chunk's progress in the caller's transaction and observes control: one statement.
     * A pending stop request raises the stop signal, so the step stops after this chunk.
     */
    StepExecution recordProgress(Checkpoint checkpoint, StepCounters total) {
        return recordProgress(Optional.of(checkpoint), total);
    }

    /** Records the counters of a unit of work, and its checkpoint if any, in the caller's transaction. */
    StepExecution recordProgress(Optional<Checkpoint> checkpoint, StepCounters total) {
        refuseIfLeaseLapsed();
        StepProgress progress;
        try {
            progress = repository.recordStepProgress(snapshot.id(), snapshot.version(), checkpoint, total, Instant.now());
        } catch (RepositoryException e) {
            throw alreadyCommittedOr(e, checkpoint, total);
        }
        if (progress.stopRequested()) {
            control.requestStop();
        }
        return progress.applyTo(snapshot, checkpoint, total);
    }

    /**
     * Records the step's completion (with its last chunk's progress), and what its {@link Completion}
     * records with it, in the caller's transaction.
     */
    StepExecution recordCompletion(Optional<Checkpoint> checkpoint, StepCounters total) {
        refuseIfLeaseLapsed();
        ExitStatus exitStatus = context.exitStatus().orElse(ExitStatus.defaultFor(ExecutionStatus.COMPLETED));
        completion.recordWith(snapshot, exitStatus, !callbacks.listensAfterCompletion());
        LifecycleTransition completed = LifecycleTransition.to(ExecutionStatus.COMPLETED, Instant.now())
                .withCounters(total).withExitStatus(exitStatus);
        try {
            return repository.transitionStepExecution(snapshot.id(), snapshot.version(),
                    checkpoint.map(completed::withCheckpoint).orElse(completed));
        } catch (RepositoryException e) {
            throw alreadyCommittedOr(e, checkpoint, total);
        }
    }

    /**
     * A unit of work tried again after its commit failed finds the step one version further, at the
     * very checkpoint and commit count it was about to record: the earlier try did commit, only its
     * acknowledgement was lost. This try must roll back (its writes would be duplicates) and the step
     * goes on from what was committed. Anything else is the refusal it is.
     */
    private RuntimeException alreadyCommittedOr(RepositoryException refusal, Optional<Checkpoint> checkpoint,
            StepCounters total) {
        if (refusal.error() != RepositoryError.VERSION_CONFLICT) {
            return refusal;
        }
        return committedOneFurther(total.commitCount())
                .filter(current -> current.checkpoint().equals(checkpoint.or(snapshot::checkpoint)))
                .<RuntimeException> map(AlreadyCommitted::new)
                .orElse(refusal);
    }

    /**
     * Called first in a unit of work tried again after a failure: throws {@link AlreadyCommitted} if
     * the failed try did commit (its acknowledgement lost with the connection), before the work
     * repeats its business writes, which a unique key refuses as duplicates (a failure that is not
     * transient, so the step would fail) and a table without one would take twice until the record's
     * version check rolled them back. One statement, on retries only. The record is this attempt's
     * unit of work when the step stands one version and one commit further, still running or
     * completed: nothing else moves the version of a step this process runs that way.
     */
    void adoptEarlierCommit() {
        Optional<StepExecution> committed = committedOneFurther(counters.commitCount() + 1);
        if (committed.isPresent()) {
            throw new AlreadyCommitted(committed.get());
        }
    }

    /** The step as stored, if it stands one version and one unit of work further, at {@code commitCount}. */
    private Optional<StepExecution> committedOneFurther(long commitCount) {
        return repository.getStepExecution(snapshot.id())
                .filter(current -> current.version().value() == snapshot.version().value() + 1)
                .filter(current -> current.status() == ExecutionStatus.STARTED || current.status() == ExecutionStatus.COMPLETED)
                .filter(current -> current.counters().commitCount() == commitCount);
    }

    /** Thrown inside a unit of work whose record an earlier, unacknowledged try already committed. */
    static final class AlreadyCommitted extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient StepExecution recorded;

        AlreadyCommitted(StepExecution recorded) {
            super("step execution " + recorded.id() + " already recorded this unit of work (version "
                    + recorded.version() + ")", null, false, false);
            this.recorded = recorded;
        }

        StepExecution recorded() {
            return recorded;
        }
    }

    /** Adopts what a committed transaction recorded. */
    void committed(StepExecution recorded, StepCounters total) {
        this.snapshot = recorded;
        this.counters = total;
    }

    /** Ends the attempt STOPPED at a chunk boundary, keeping its last checkpoint. */
    StepOutcome stop() {
        snapshot = bookkeeping.record("the stop of step execution " + snapshot.id(), () -> endFromCurrent(current -> {
            StepExecution stopping = current.status() == ExecutionStatus.STOPPING ? current
                    : repository.transitionStepExecution(current.id(), current.version(),
                            LifecycleTransition.to(ExecutionStatus.STOPPING, Instant.now()));
            return repository.transitionStepExecution(stopping.id(), stopping.version(),
                    LifecycleTransition.to(ExecutionStatus.STOPPED, Instant.now()).withCounters(counters));
        }));
        return StepOutcome.of(snapshot);
    }

    /**
     * A unit of work whose execution's lease may have run out does not commit: the node that recovers
     * the execution may be restarting it elsewhere. Decided on this process's clock, before any
     * statement; a transient failure, so the unit of work is tried again once a renewal is confirmed
     * (the execution is still this process's), or given up to the owner-loss restart policy.
     */
    private void refuseIfLeaseLapsed() {
        Optional<String> lapsed = control.leaseLapsed();
        if (lapsed.isPresent()) {
            throw new RepositoryException(RepositoryError.STORAGE_TRANSIENT, "not committed: " + lapsed.get());
        }
    }

    /** Ends the attempt FAILED, keeping the checkpoint of its last committed chunk. */
    StepOutcome fail(Throwable failure, StepCounters total) {
        return fail(failure, total, Optional.empty());
    }

    /** Ends the attempt FAILED with {@code checkpoint} (a tasklet's own, a reader's at failure), else keeping the last one. */
    StepOutcome fail(Throwable failure, StepCounters total, Optional<Checkpoint> checkpoint) {
        if (TransientFailures.isTransient(failure)) {
            control.repositoryLost(failure);
        }
        LifecycleTransition failed = LifecycleTransition.to(ExecutionStatus.FAILED, Instant.now())
                .withFailure(ExecutionFailure.of(failure)).withCounters(total);
        LifecycleTransition recorded = checkpoint.map(failed::withCheckpoint).orElse(failed);
        snapshot = bookkeeping.record("the failure of step execution " + snapshot.id(), () -> endFromCurrent(
                current -> repository.transitionStepExecution(current.id(), current.version(), recorded)));
        counters = total;
        if (snapshot.status() == ExecutionStatus.FAILED) {
            // the one line with the cause's stack: the job's end line then names only the failure
            LOG.errorf(failure, "Job '%s' execution %s failed in step '%s' (step execution %s)", context.jobName(),
                    context.jobExecutionId(), snapshot.stepName(), snapshot.id());
        }
        return StepOutcome.of(snapshot);
    }

    /**
     * Ends the attempt from its stored row, not from the last snapshot this process saw: a commit whose
     * acknowledgement was lost may have moved the version since. An attempt that is no longer active
     * was ended by someone else (recovered, or released to another worker): that record stands.
     */
    private StepExecution endFromCurrent(java.util.function.UnaryOperator<StepExecution> end) {
        StepExecution current = repository.getStepExecution(snapshot.id()).orElseThrow();
        return current.status().isActive() ? end.apply(current) : current;
    }
}
