package io.durablebatch.runtime.job;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.jboss.logging.Logger;

import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.job.PartitionedStep;
import io.durablebatch.job.Partitioning;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.partition.PartitionPlanEntry;
import io.durablebatch.repository.partition.StepPartition;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.partition.PartitionLeaseStore;
import io.durablebatch.runtime.partition.PlanSummary;
import io.durablebatch.runtime.sql.BatchThread;
import io.durablebatch.runtime.sql.TransientFailures;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * Runs a partitioned step attempt (the parent): publishes its partition plan (or copies the plan of
 * the attempt it resumes, keeping completed partitions), runs local {@link PartitionWorker}s, and
 * terminates the parent with the aggregate of its partitions once none is unassigned or running.
 * Workers of other processes may claim partitions of the plan too.
 * <p>
 * The parent waits on leases, not on rows: at every poll one statement ({@link PartitionLeaseStore})
 * releases the partitions whose worker let its lease run out (its process died, here or elsewhere) and
 * counts the plan. Released partitions are handed out again to local workers, which resume the dead
 * worker's checkpoint. A stop ends the wait once no partition runs: local workers stop at their chunk
 * boundary, dead ones are released, and unassigned partitions are left to a restart. If a local worker
 * thread fails, no more work is handed out, and the parent waits for every other worker before it
 * records anything: it never ends while a worker of its plan is active.
 */
final class PartitionedStepRunner {

    private static final Logger LOG = Logger.getLogger(PartitionedStepRunner.class);

    private final KernelRepository repository;
    private final PartitionWorker workers;
    private final int defaultWorkers;
    private final long pollMillis;
    private final PartitionLeaseStore leases;

    PartitionedStepRunner(KernelRepository repository, PartitionLeaseStore leases, PartitionWorker workers,
            int defaultWorkers, Duration aggregatePoll) {
        this.repository = repository;
        this.leases = leases;
        this.workers = workers;
        this.defaultWorkers = defaultWorkers;
        this.pollMillis = Math.max(1, aggregatePoll.toMillis());
    }

    StepOutcome run(StepAttempt parent) {
        PartitionedStep step = (PartitionedStep) parent.step();
        Published published;
        try {
            published = publishPlan(parent, step);
        } catch (Exception e) {
            return parent.fail(e, parent.counters());
        }
        StepExecution snapshot = parent.snapshot();
        Analysis analysis = new Analysis(step.analyzer().map(PartitionEvents::new));
        PartitionWorker.Plan plan = new PartitionWorker.Plan(snapshot.id(), snapshot.jobExecutionId(), parent.context(),
                step.worker(), published.resumed(), parent.control(), analysis.events.orElse(null));
        int size = published.workers().orElse(step.workers().orElse(defaultWorkers));
        try (LocalWorkers local = new LocalWorkers(step, size, plan)) {
            local.handOut();
            return watch(parent, local, analysis);
        }
    }

    /** A stored plan: the checkpoints its unfinished partitions resume (by key), and the attempt's worker threads. */
    private record Published(Map<String, Checkpoint> resumed, OptionalInt workers) {
    }

    /**
     * Stores the plan the partitioner decides on: a copy of the resumed attempt's plan (completed
     * partitions kept, the others resuming their worker's checkpoint) or a fresh one.
     */
    private Published publishPlan(StepAttempt parent, PartitionedStep step) throws Exception {
        StepExecution current = parent.snapshot();
        Optional<StepExecution> previous = parent.resumes();
        List<StepPartition> previousPlan = previous.isEmpty() ? List.of()
                : QuarkusTransaction.requiringNew().call(() -> repository.stepPartitionPlan(previous.get().id()));
        Partitioning partitioning = step.partitioner().partitioning(parent.context(), !previousPlan.isEmpty());
        if (partitioning.resumes()) {
            if (previousPlan.isEmpty()) {
                throw new IllegalStateException("the partitioner of step '" + step.name() + "' resumes a stored plan, "
                        + "but this attempt restarts none: it must partition afresh");
            }
            Map<String, Checkpoint> checkpoints = QuarkusTransaction.requiringNew().call(() -> {
                repository.restartStepPartitionPlan(previous.get().id(), current.id());
                return workers.checkpointsOfUnfinished(previousPlan);
            });
            LOG.infof("Step '%s' resumes the plan of step execution %s: %d of %d partitions left", step.name(),
                    previous.get().id(), previousPlan.stream().filter(p -> p.status() != ExecutionStatus.COMPLETED).count(),
                    previousPlan.size());
            return new Published(checkpoints, partitioning.workers());
        }
        List<PartitionPlanEntry> entries = partitioning.fresh().orElseThrow();
        QuarkusTransaction.requiringNew().run(() -> repository.createStepPartitionPlan(current.id(), entries));
        if (previousPlan.isEmpty()) {
            LOG.infof("Step '%s' planned %d partitions", step.name(), entries.size());
        } else {
            LOG.infof("Step '%s' planned %d partitions afresh, ignoring the %d of step execution %s", step.name(),
                    entries.size(), previousPlan.size(), previous.get().id());
        }
        return new Published(Map.of(), partitioning.workers());
    }

    /**
     * Polls the plan until the parent can end, and ends it. Each poll is one statement; it comes every
     * poll interval, or as soon as a local worker ends. An interrupt is taken as a stop request.
     */
    private StepOutcome watch(StepAttempt parent, LocalWorkers local, Analysis analysis) {
        boolean interrupted = false;
        try {
            while (true) {
                Optional<PlanSummary> polled = Optional.empty();
                RuntimeException blind = null;
                try {
                    polled = Optional.of(poll(parent));
                } catch (RuntimeException e) {
                    LOG.debugf("Polling the partitions of step execution %s failed: %s", parent.snapshot().id(), e);
                    if (!TransientFailures.isTransient(e)) {
                        blind = e; // as a failed local worker: no more work is handed out
                        local.fail(e);
                    }
                }
                if (polled.isPresent()) {
                    PlanSummary plan = polled.get();
                    if (plan.unassigned() > 0 && !parent.control().stopRequested()) {
                        local.handOut();
                    }
                    analysis.deliver(parent, local);
                    if (plan.running() == 0 && local.idle()) {
                        Optional<StepOutcome> ended = end(parent, plan, local.failure(), analysis);
                        if (ended.isPresent()) {
                            return ended.get();
                        }
                    }
                } else if (blind != null && local.idle()) {
                    // the plan cannot be seen, and not for a passing reason: record what is known
                    return parent.fail(local.failure().orElse(blind), parent.counters());
                }
                if (!local.awaitAnyEnd(pollMillis)) {
                    interrupted = true;
                    parent.control().requestStop();
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** One statement: releases partitions of dead workers and counts the plan. */
    private PlanSummary poll(StepAttempt parent) {
        StepExecution current = parent.snapshot();
        PlanSummary plan = QuarkusTransaction.requiringNew().call(() -> leases.poll(current.id(), Instant.now()));
        if (plan.released() > 0) {
            LOG.warnf("Step '%s' (step execution %s) released %d partition(s) whose worker's lease ran out: they are "
                    + "handed out again and resume the dead worker's checkpoint", parent.step().name(), current.id(),
                    plan.released());
        }
        return plan;
    }

    /**
     * Ends the parent once no partition runs and no local worker is left: with the aggregate of its
     * partitions when every one has its result, otherwise (unassigned partitions are left to a restart)
     * FAILED after a local worker failed, or STOPPED after a stop. Empty when it cannot end yet (a
     * partition was claimed meanwhile) or failed transiently: the next poll tries again.
     * <p>
     * Before it ends with unassigned partitions left, the parent closes its plan: it moves to STOPPING,
     * after which no claim succeeds, and which waits for the claims in flight (they share-lock the
     * parent's row). It then looks again, so a partition claimed just before is waited for.
     */
    private Optional<StepOutcome> end(StepAttempt parent, PlanSummary polled, Optional<Throwable> failure,
            Analysis analysis) {
        boolean workLeft = !polled.allDone();
        if (workLeft && failure.isEmpty() && !parent.control().stopRequested()) {
            return Optional.empty();
        }
        try {
            PlanSummary plan = polled;
            if (workLeft && parent.snapshot().status() == ExecutionStatus.STARTED) {
                StepExecution closed = QuarkusTransaction.requiringNew().call(() -> closePlan(parent.snapshot()));
                parent.committed(closed, parent.counters());
                plan = poll(parent);
                if (plan.running() > 0) {
                    return Optional.empty();
                }
            }
            if (failure.isPresent() && (!plan.allDone() || analysis.failure.isPresent())) {
                return Optional.of(parent.fail(failure.get(), parent.counters()));
            }
            // every partition has ended, or a stop leaves the unstarted ones to a restart
            Optional<Throwable> refused = analysis.allEnded(parent, plan);
            if (refused.isPresent()) {
                return Optional.of(parent.fail(refused.get(), parent.counters()));
            }
            PlanSummary settled = plan;
            Optional<ExitStatus> exitStatus = parent.context().exitStatus();
            StepExecution ended = QuarkusTransaction.requiringNew().call(() -> {
                StepExecution current = parent.snapshot();
                if (!settled.allDone()) {
                    return stop(current);
                }
                if (settled.stopped() > 0 && settled.failed() == 0 && current.status() == ExecutionStatus.STARTED) {
                    current = repository.transitionStepExecution(current.id(), current.version(),
                            LifecycleTransition.to(ExecutionStatus.STOPPING, Instant.now()));
                }
                return repository.aggregateStepPartitions(current.id(), current.version(), Instant.now(), exitStatus);
            });
            parent.committed(ended, ended.counters());
            return Optional.of(StepOutcome.of(ended));
        } catch (RuntimeException e) {
            if (TransientFailures.isTransient(e)
                    || e instanceof RepositoryException refusal && refusal.error() == RepositoryError.PARTITION_CHILD_ACTIVE) {
                LOG.debugf("Step execution %s cannot end yet: %s", parent.snapshot().id(), e);
                return Optional.empty();
            }
            return Optional.of(parent.fail(e, parent.counters()));
        }
    }

    /**
     * The analyzer of the step's partitions, if it has one, and its first failure: after it, no more
     * work is handed out and the step fails once no partition runs.
     */
    private static final class Analysis {

        private final Optional<PartitionEvents> events;
        private Optional<Throwable> failure = Optional.empty();
        private boolean allEnded;

        Analysis(Optional<PartitionEvents> events) {
            this.events = events;
        }

        void deliver(StepAttempt parent, LocalWorkers local) {
            if (events.isEmpty() || failure.isPresent()) {
                return;
            }
            try {
                events.get().deliver(parent.context());
            } catch (Exception | Error e) {
                LOG.errorf(e, "The partition analyzer of step execution %s failed: no more partitions are handed out, "
                        + "and the step fails once its workers have ended", parent.snapshot().id());
                failure = Optional.of(e);
                local.fail(e);
            }
        }

        /**
         * Tells the analyzer, once, that the attempt's partitions have ended (every one, or after a stop
         * those that started: the step then stops); returns its failure.
         */
        Optional<Throwable> allEnded(StepAttempt parent, PlanSummary plan) {
            if (events.isEmpty() || allEnded) {
                return failure;
            }
            allEnded = true;
            ExecutionStatus aggregate = !plan.allDone() ? ExecutionStatus.STOPPED
                    : plan.failed() > 0 ? ExecutionStatus.FAILED
                            : plan.stopped() > 0 ? ExecutionStatus.STOPPED : ExecutionStatus.COMPLETED;
            try {
                events.get().allEnded(parent.context(), aggregate);
            } catch (Exception | Error e) {
                failure = Optional.of(e);
            }
            return failure;
        }
    }

    /**
     * Moves the parent to STOPPING, reading it first: a close whose commit acknowledgement was lost
     * has happened already, and is adopted when it is tried again.
     */
    private StepExecution closePlan(StepExecution parent) {
        StepExecution current = repository.getStepExecution(parent.id()).orElseThrow();
        return current.status() != ExecutionStatus.STARTED ? current
                : repository.transitionStepExecution(current.id(),
                        current.version(), LifecycleTransition.to(ExecutionStatus.STOPPING, Instant.now()));
    }

    /** STOPPED, through STOPPING unless the plan was closed already. */
    private StepExecution stop(StepExecution parent) {
        StepExecution stopping = parent.status() == ExecutionStatus.STOPPING ? parent
                : repository.transitionStepExecution(parent.id(), parent.version(),
                        LifecycleTransition.to(ExecutionStatus.STOPPING, Instant.now()));
        return repository.transitionStepExecution(stopping.id(), stopping.version(),
                LifecycleTransition.to(ExecutionStatus.STOPPED, Instant.now()));
    }

    /**
     * The parent's own worker threads. Started again, up to the step's worker count, while partitions
     * wait for a worker (released from dead workers, or left by a claim that failed transiently); the
     * first failure of a thread stops the handing out of work, and the others end after their partition.
     * Only the parent's thread uses it.
     */
    private final class LocalWorkers implements AutoCloseable {

        /** A parent that cannot see its plan for long fails its polls at every interval: keep a few. */
        private static final int MAX_SUPPRESSED = 10;

        private final PartitionWorker.Plan plan;
        private final int size;
        private final ExecutorService pool;
        private final CompletionService<Integer> ends;
        private final Set<Future<Integer>> running = new HashSet<>();
        private volatile boolean handingOut = true;
        private Throwable failure;

        LocalWorkers(PartitionedStep step, int size, PartitionWorker.Plan plan) {
            this.plan = plan;
            this.size = size;
            AtomicInteger started = new AtomicInteger();
            ClassLoader classLoader = Thread.currentThread().getContextClassLoader();
            this.pool = Executors.newFixedThreadPool(size, task -> {
                return new BatchThread(task, "durable-batch-partition-" + step.id() + "-" + started.incrementAndGet(),
                        classLoader, false);
            });
            this.ends = new ExecutorCompletionService<>(pool);
        }

        /** Starts workers until {@code size} run, unless work is no longer handed out. */
        void handOut() {
            while (handingOut && running.size() < size) {
                running.add(ends.submit(() -> PartitionWorker.inRequestContext(() -> workers.work(plan,
                        () -> handingOut))));
            }
        }

        /** Records a failure that ends the handing out of work; the first one is kept, later ones suppressed. */
        void fail(Throwable cause) {
            handingOut = false;
            if (failure == null) {
                failure = cause;
            } else if (failure != cause && failure.getSuppressed().length < MAX_SUPPRESSED) {
                failure.addSuppressed(cause);
            }
        }

        /** Whether no local worker runs. */
        boolean idle() {
            collectEnded();
            return running.isEmpty();
        }

        Optional<Throwable> failure() {
            return Optional.ofNullable(failure);
        }

        /** Waits up to {@code millis} for a local worker to end; false if interrupted meanwhile. */
        boolean awaitAnyEnd(long millis) {
            try {
                Future<Integer> ended = ends.poll(millis, TimeUnit.MILLISECONDS);
                if (ended != null) {
                    collect(ended);
                }
                return true;
            } catch (InterruptedException e) {
                return false;
            }
        }

        private void collectEnded() {
            for (Future<Integer> ended = ends.poll(); ended != null; ended = ends.poll()) {
                collect(ended);
            }
        }

        private void collect(Future<Integer> ended) {
            running.remove(ended);
            try {
                ended.get();
            } catch (ExecutionException | CancellationException e) {
                Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
                if (failure == null) {
                    LOG.errorf(cause, "A local worker of step execution %s failed: no more partitions are handed "
                            + "out, and the step ends once its other workers have", plan.parent());
                }
                fail(cause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // cannot happen: the future is done
            }
        }

        @Override
        public void close() {
            pool.shutdownNow();
        }
    }
}
