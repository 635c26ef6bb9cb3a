package io.durablebatch.runtime.job;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import org.jboss.logging.Logger;

import io.durablebatch.job.PartitionContext;
import io.durablebatch.job.PartitionedStep;
import io.durablebatch.job.Step;
import io.durablebatch.partition.PartitionPlanEntry;
import io.durablebatch.partition.StepPartition;
import io.durablebatch.repository.Checkpoint;
import io.durablebatch.repository.ExecutionStatus;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.StepExecution;
import io.quarkus.arc.Arc;
import io.quarkus.arc.ManagedContext;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * Runs a partitioned step attempt (the parent): publishes its partition plan (or copies the plan of
 * the attempt it resumes, keeping completed partitions), runs local workers that claim partitions
 * one at a time through the repository until none is left, then terminates the parent with the
 * aggregate of its partitions once no partition is active (workers of other processes included).
 * <p>
 * Each worker claim is one transaction that creates the worker step attempt and assigns it the next
 * unassigned partition, skipping partitions other workers are claiming; it rolls back, leaving no
 * trace, when nothing is left. A worker resumes the checkpoint of the worker that ran its partition
 * in the attempt being resumed.
 */
final class PartitionedStepRunner {

    private static final Logger LOG = Logger.getLogger(PartitionedStepRunner.class);
    private static final long AGGREGATE_POLL_MILLIS = 200;

    /** A claimed partition and the worker step attempt that runs it. */
    private record Claim(StepExecution worker, StepPartition partition) {
    }

    private final JobRepository repository;
    private final StepRunners steps;
    private final int defaultWorkers;

    PartitionedStepRunner(JobRepository repository, StepRunners steps, int defaultWorkers) {
        this.repository = repository;
        this.steps = steps;
        this.defaultWorkers = defaultWorkers;
    }

    StepOutcome run(StepAttempt parent) {
        PartitionedStep step = (PartitionedStep) parent.step();
        Map<String, Checkpoint> resumed;
        try {
            resumed = publishPlan(parent, step);
        } catch (Exception e) {
            return parent.fail(e, parent.counters());
        }
        int workers = step.workers().orElse(defaultWorkers);
        AtomicInteger ran = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(workers, task -> {
            Thread thread = new Thread(task, "durable-batch-partition-" + step.id() + "-" + ran.incrementAndGet());
            thread.setContextClassLoader(Thread.currentThread().getContextClassLoader());
            return thread;
        });
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int i = 0; i < workers; i++) {
                running.add(pool.submit(() -> inRequestContext(() -> work(parent, step, resumed))));
            }
            for (Future<?> worker : running) {
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
                return checkpointsOfUnfinished(previousPlan);
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

    private Map<String, Checkpoint> checkpointsOfUnfinished(List<StepPartition> plan) {
        Map<String, Checkpoint> checkpoints = new HashMap<>();
        for (StepPartition partition : plan) {
            if (partition.status() != ExecutionStatus.COMPLETED && partition.worker().isPresent()) {
                repository.getStepExecution(partition.worker().get()).flatMap(StepExecution::checkpoint)
                        .ifPresent(checkpoint -> checkpoints.put(key(partition.entry()), checkpoint));
            }
        }
        return checkpoints;
    }

    /** One local worker: claims and runs partitions until none is left or a stop is requested. */
    private Void work(StepAttempt parent, PartitionedStep step, Map<String, Checkpoint> resumed) {
        Step worker = step.worker();
        while (!parent.control().stopRequested()) {
            // nothing left to claim rolls the worker attempt back: it leaves no trace
            Optional<Claim> claimed = Transactions.commitIfPresent(() -> {
                StepExecution created = repository.createStepExecution(parent.snapshot().jobExecutionId(), worker.name());
                return repository.claimNextStepPartition(parent.snapshot().id(), created.id())
                        .map(partition -> new Claim(steps.started(created,
                                Optional.ofNullable(resumed.get(key(partition.entry())))), partition));
            });
            if (claimed.isEmpty()) {
                return null;
            }
            runPartition(parent, worker, claimed.get(), resumed);
        }
        return null;
    }

    private void runPartition(StepAttempt parent, Step worker, Claim claim, Map<String, Checkpoint> resumed) {
        StepPartition partition = claim.partition();
        Checkpoint resumeFrom = resumed.get(key(partition.entry()));
        StepContextImpl context = parent.context().forWorker(worker, claim.worker(), resumeFrom != null,
                new PartitionContext(partition.entry(), partition.ordinal()));
        StepOutcome outcome = steps.run(new StepAttempt(repository, worker, context, Optional.empty(),
                Optional.ofNullable(resumeFrom), parent.control(), claim.worker()));
        QuarkusTransaction.requiringNew().run(() -> repository.completeStepPartition(partition.id(),
                partition.version(), claim.worker().id()));
        LOG.debugf("Partition %d (%s) of step execution %s ended %s", partition.ordinal(),
                new PartitionContext(partition.entry(), partition.ordinal()).key(), parent.snapshot().id(), outcome.status());
    }

    /** Terminates the parent with the aggregate of its partitions, once none is active. */
    private StepOutcome aggregate(StepAttempt parent) {
        while (true) {
            try {
                StepExecution ended = QuarkusTransaction.requiringNew().call(() -> {
                    StepExecution current = parent.snapshot();
                    List<StepPartition> plan = repository.stepPartitionPlan(current.id());
                    boolean anyStopped = plan.stream().anyMatch(p -> p.status() == ExecutionStatus.STOPPED);
                    boolean anyFailed = plan.stream().anyMatch(p -> p.status() == ExecutionStatus.FAILED);
                    boolean unassigned = plan.stream().anyMatch(StepPartition::isUnassigned);
                    if (unassigned && parent.control().stopRequested()) {
                        return stop(current); // partitions left unassigned by the stop: a restart runs them
                    }
                    if (anyStopped && !anyFailed) {
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
            // a partition is still running, here or in another process
            try {
                Thread.sleep(AGGREGATE_POLL_MILLIS);
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

    /** Runs on a worker thread with an active request context, as step code may expect one. */
    private static Void inRequestContext(java.util.function.Supplier<Void> work) {
        ManagedContext requestContext = Arc.container().requestContext();
        requestContext.activate();
        try {
            return work.get();
        } finally {
            requestContext.terminate();
        }
    }

    private static String key(PartitionPlanEntry entry) {
        return java.util.HexFormat.of().formatHex(entry.key());
    }
}
