package io.durablebatch.runtime.job;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import org.jboss.logging.Logger;

import io.durablebatch.job.PartitionedStep;
import io.durablebatch.partition.PartitionPlanEntry;
import io.durablebatch.partition.StepPartition;
import io.durablebatch.repository.Checkpoint;
import io.durablebatch.repository.ExecutionStatus;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.StepExecution;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * Runs a partitioned step attempt (the parent): publishes its partition plan (or copies the plan of
 * the attempt it resumes, keeping completed partitions), runs local {@link PartitionWorker}s until no
 * partition is left to claim, then terminates the parent with the aggregate of its partitions once
 * none is active. Workers of other processes may claim partitions of the plan too: the parent waits
 * for every partition, whoever claimed it, observing at each control poll interval.
 */
final class PartitionedStepRunner {

    private static final Logger LOG = Logger.getLogger(PartitionedStepRunner.class);

    private final JobRepository repository;
    private final PartitionWorker workers;
    private final int defaultWorkers;
    private final long aggregatePollMillis;

    PartitionedStepRunner(JobRepository repository, PartitionWorker workers, int defaultWorkers,
            Duration aggregatePoll) {
        this.repository = repository;
        this.workers = workers;
        this.defaultWorkers = defaultWorkers;
        this.aggregatePollMillis = Math.max(1, aggregatePoll.toMillis());
    }

    StepOutcome run(StepAttempt parent) {
        PartitionedStep step = (PartitionedStep) parent.step();
        Map<String, Checkpoint> resumed;
        try {
            resumed = publishPlan(parent, step);
        } catch (Exception e) {
            return parent.fail(e, parent.counters());
        }
        StepExecution snapshot = parent.snapshot();
        PartitionWorker.Plan plan = new PartitionWorker.Plan(snapshot.id(), snapshot.jobExecutionId(), parent.context(),
                step.worker(), resumed, parent.control());
        int threads = step.workers().orElse(defaultWorkers);
        AtomicInteger started = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads, task -> {
            Thread thread = new Thread(task, "durable-batch-partition-" + step.id() + "-" + started.incrementAndGet());
            thread.setContextClassLoader(Thread.currentThread().getContextClassLoader());
            return thread;
        });
        try {
            List<Future<Integer>> running = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                running.add(pool.submit(() -> PartitionWorker.inRequestContext(() -> workers.work(plan))));
            }
            for (Future<Integer> worker : running) {
                worker.get();
            }
        } catch (Exception e) {
            return parent.fail(e, parent.counters());
        } finally {
            pool.shutdownNow();
        }
        return aggregate(parent);
    }

    /** Stores the plan; returns the checkpoints of unfinished partitions of the resumed attempt, by key. */
    private Map<String, Checkpoint> publishPlan(StepAttempt parent, PartitionedStep step) throws Exception {
        StepExecution current = parent.snapshot();
        Optional<StepExecution> previous = parent.resumes();
        List<StepPartition> previousPlan = previous.isEmpty() ? List.of()
                : QuarkusTransaction.requiringNew().call(() -> repository.stepPartitionPlan(previous.get().id()));
        if (!previousPlan.isEmpty()) {
            Map<String, Checkpoint> checkpoints = QuarkusTransaction.requiringNew().call(() -> {
                repository.restartStepPartitionPlan(previous.get().id(), current.id());
                return workers.checkpointsOfUnfinished(previousPlan);
            });
            LOG.infof("Step '%s' resumes the plan of step execution %s: %d of %d partitions left", step.name(),
                    previous.get().id(), previousPlan.stream().filter(p -> p.status() != ExecutionStatus.COMPLETED).count(),
                    previousPlan.size());
            return checkpoints;
        }
        List<PartitionPlanEntry> entries = step.partitioner().partition(parent.context());
        QuarkusTransaction.requiringNew().run(() -> repository.createStepPartitionPlan(current.id(), entries));
        LOG.infof("Step '%s' planned %d partitions", step.name(), entries.size());
        return Map.of();
    }

    /**
     * Terminates the parent with the aggregate of its partitions, once none is active: partitions
     * still running here or in another process are waited for. A stop leaves unassigned partitions
     * to a restart, once no partition is running any more.
     */
    private StepOutcome aggregate(StepAttempt parent) {
        while (true) {
            try {
                StepExecution ended = QuarkusTransaction.requiringNew().call(() -> {
                    StepExecution current = parent.snapshot();
                    List<StepPartition> plan = repository.stepPartitionPlan(current.id());
                    boolean anyStopped = plan.stream().anyMatch(p -> p.status() == ExecutionStatus.STOPPED);
                    boolean anyFailed = plan.stream().anyMatch(p -> p.status() == ExecutionStatus.FAILED);
                    boolean unassigned = plan.stream().anyMatch(StepPartition::isUnassigned);
                    boolean running = plan.stream().anyMatch(p -> p.status() == ExecutionStatus.STARTED);
                    if (unassigned && !running && parent.control().stopRequested()) {
                        return stop(current); // partitions left unassigned by the stop: a restart runs them
                    }
                    if (anyStopped && !anyFailed && !running && !unassigned) {
                        current = repository.transitionStepExecution(current.id(), current.version(),
                                LifecycleTransition.to(ExecutionStatus.STOPPING, Instant.now()));
                    }
                    return repository.aggregateStepPartitions(current.id(), current.version(), Instant.now());
                });
                parent.committed(ended, ended.counters());
                return StepOutcome.of(ended);
            } catch (RepositoryException e) {
                if (e.error() != RepositoryError.PARTITION_CHILD_ACTIVE) {
                    return parent.fail(e, parent.counters());
                }
            }
            // a partition is unassigned or running, here or in another process
            try {
                Thread.sleep(aggregatePollMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return parent.fail(e, parent.counters());
            }
        }
    }

    private StepExecution stop(StepExecution parent) {
        StepExecution stopping = repository.transitionStepExecution(parent.id(), parent.version(),
                LifecycleTransition.to(ExecutionStatus.STOPPING, Instant.now()));
        return repository.transitionStepExecution(stopping.id(), stopping.version(),
                LifecycleTransition.to(ExecutionStatus.STOPPED, Instant.now()));
    }
}
