package io.durablebatch.runtime.job;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobInstance;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.Node;
import io.durablebatch.job.PartitionedStep;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.partition.OpenPartitionPlan;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.DurableBatchConfig;
import io.durablebatch.runtime.sql.BatchThread;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;

/**
 * Workers of this process for partitioned steps that any process of the application runs
 * ({@code quarkus.durable-batch.partitions.remote-workers.enabled}). At every poll interval, while
 * threads are free, it lists the open partition plans of the jobs this process defines and runs
 * {@link PartitionWorker}s on them: the very claims and worker step attempts of the parent's own
 * workers, so every partition still runs exactly once, whichever process claims it. The parent's
 * process waits for these partitions and aggregates them.
 * <p>
 * A plan is only taken part in when this process defines the job with the definition the execution
 * runs (same plan fingerprint): a worker step must be the same code as the parent expects. Workers
 * observe stop requests at their chunk commits. Shutting this process down stops them there too, and
 * hands their partitions back to the plan, so the job they helped goes on with other workers.
 */
@Singleton
public class RemotePartitionWorkers {

    private static final Logger LOG = Logger.getLogger(RemotePartitionWorkers.class);

    private final KernelRepository repository;
    private final JobRegistry registry;
    private final PartitionWorker worker;
    private final KernelIdentity identity;
    private final boolean enabled;
    private final Duration pollInterval;
    private final int concurrency;
    private final Duration shutdownTimeout;
    private final AtomicInteger busy = new AtomicInteger();
    private volatile boolean shuttingDown;
    private ScheduledExecutorService poller;
    private ThreadPoolExecutor threads;

    RemotePartitionWorkers(KernelRepository repository, JobRegistry registry, StepRunners steps, KernelIdentity identity,
            DurableBatchConfig config) {
        this.repository = repository;
        this.registry = registry;
        this.worker = steps.partitionWorker();
        this.identity = identity;
        DurableBatchConfig.Partitions.RemoteWorkers remote = config.partitions().remoteWorkers();
        this.enabled = remote.enabled();
        this.pollInterval = remote.pollInterval();
        this.concurrency = remote.concurrency();
        this.shutdownTimeout = config.shutdown().timeout();
        if (enabled && concurrency < 1) {
            throw new IllegalArgumentException("quarkus.durable-batch.partitions.remote-workers.concurrency must be at "
                    + "least 1, got " + concurrency);
        }
        if (enabled && pollInterval.toMillis() <= 0) {
            throw new IllegalArgumentException("quarkus.durable-batch.partitions.remote-workers.poll-interval must be "
                    + "positive, got " + pollInterval);
        }
    }

    /** Starts polling once the job registry is loaded. */
    void onStart(@Observes StartupEvent event) {
        if (!enabled) {
            return;
        }
        ClassLoader classLoader = Thread.currentThread().getContextClassLoader();
        AtomicInteger count = new AtomicInteger();
        threads = new ThreadPoolExecutor(concurrency, concurrency, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>(),
                task -> {
                    return new BatchThread(task, "durable-batch-remote-partition-" + count.incrementAndGet(),
                            classLoader, false);
                });
        threads.allowCoreThreadTimeOut(true);
        poller = Executors.newSingleThreadScheduledExecutor(task -> {
            return new BatchThread(task, "durable-batch-remote-partition-poller", classLoader, true);
        });
        poller.scheduleWithFixedDelay(this::poll, pollInterval.toMillis(), pollInterval.toMillis(),
                TimeUnit.MILLISECONDS);
        LOG.infof("Remote partition workers of %s: up to %d, looking for open partition plans every %s",
                identity.owner(), concurrency, pollInterval);
    }

    /**
     * Lists open plans (at most one per free thread) and spreads the free threads over them. A plan
     * worked off meanwhile costs a worker one rolled-back claim.
     */
    private void poll() {
        int free = concurrency - busy.get();
        if (free <= 0 || shuttingDown) {
            return;
        }
        try {
            List<JobName> jobs = registry.definitions().stream().map(JobDefinition::name).toList();
            List<OpenPartitionPlan> open = QuarkusTransaction.requiringNew()
                    .call(() -> repository.openStepPartitionPlans(jobs, free));
            for (int i = 0; i < free && !open.isEmpty(); i++) {
                OpenPartitionPlan plan = open.get(i % open.size());
                busy.incrementAndGet();
                threads.execute(() -> {
                    try {
                        PartitionWorker.inRequestContext(() -> takePart(plan));
                    } finally {
                        busy.decrementAndGet();
                    }
                });
            }
        } catch (RuntimeException e) {
            LOG.debugf(e, "Looking for open partition plans failed; trying again later");
        }
    }

    /** Runs partitions of {@code plan} until none is left; returns how many this thread ran. */
    private int takePart(OpenPartitionPlan plan) {
        try {
            Optional<PartitionWorker.Plan> work = QuarkusTransaction.requiringNew().call(() -> workOf(plan));
            if (work.isEmpty()) {
                return 0;
            }
            int ran = worker.work(work.get());
            if (ran > 0) {
                LOG.infof("Remote worker %s ran %d partition(s) of step execution %s (job '%s' execution %s)",
                        identity.owner(), ran, plan.parent(), plan.jobName(), plan.jobExecution());
            }
            return ran;
        } catch (RepositoryException e) {
            // typically the parent stopped handing out work meanwhile (it ended, or its job was stopped)
            LOG.debugf("Remote worker %s leaves step execution %s: %s", identity.owner(), plan.parent(), e.getMessage());
            return 0;
        } catch (RuntimeException e) {
            // a partition it claimed stays assigned to its worker step: recovery of the job resolves it
            LOG.warnf(e, "Remote worker %s failed in step execution %s", identity.owner(), plan.parent());
            return 0;
        }
    }

    /** What a worker needs to take part in {@code plan}, if this process runs the definition it needs. */
    private Optional<PartitionWorker.Plan> workOf(OpenPartitionPlan plan) {
        Optional<JobDefinition> definition = registry.find(plan.jobName().value());
        Optional<Node> node = definition.flatMap(d -> d.node(plan.node().value()));
        JobExecution execution = repository.getJobExecution(plan.jobExecution()).orElseThrow();
        if (node.isEmpty() || !(node.get() instanceof PartitionedStep step)
                || !execution.definition().equals(Optional.of(definition.get().identity()))) {
            LOG.debugf("Step execution %s runs node '%s' of job '%s' %s, which this process does not define: "
                    + "left to other workers", plan.parent(), plan.node(), plan.jobName(), execution.definition());
            return Optional.empty();
        }
        if (step.localWorkersOnly()) {
            LOG.debugf("Step execution %s runs node '%s' of job '%s', whose partitions only its own process runs (its "
                    + "analyzer receives their data in memory)", plan.parent(), plan.node(), plan.jobName());
            return Optional.empty();
        }
        JobInstance instance = repository.getJobInstance(execution.jobInstanceId()).orElseThrow();
        StepExecution parent = repository.getStepExecution(plan.parent()).orElseThrow();
        Map<String, Checkpoint> resumed = plan.restartedFrom()
                .map(previous -> worker.checkpointsOfUnfinished(repository.stepPartitionPlan(previous)))
                .orElse(Map.of());
        StepContextImpl context = new StepContextImpl(JobContextImpl.remote(definition.get().name(),
                JobParameters.of(instance.key(), execution.parameters()), execution), parent, step,
                plan.restartedFrom().isPresent());
        return Optional.of(new PartitionWorker.Plan(plan.parent(), plan.jobExecution(), context, step.worker(),
                resumed, new Signal(), null));
    }

    /**
     * Stops at the next chunk boundary on a stop request (seen at a chunk commit) or when this process
     * shuts down.
     */
    private final class Signal implements StopSignal {

        private volatile boolean stopRequested;

        @Override
        public boolean stopRequested() {
            return stopRequested || shuttingDown;
        }

        @Override
        public void requestStop() {
            stopRequested = true;
        }

        @Override
        public boolean leaving() {
            return shuttingDown && !stopRequested;
        }
    }

    /** Stops the workers at their next chunk boundary and waits up to the shutdown timeout for them. */
    void onShutdown(@Observes ShutdownEvent event) {
        shuttingDown = true;
        if (threads == null) {
            return;
        }
        poller.shutdownNow();
        threads.shutdown();
        try {
            if (!threads.awaitTermination(shutdownTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warnf("Remote partition workers did not stop within %s: their partitions stay active until "
                        + "their job is recovered", shutdownTimeout);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @PreDestroy
    void close() {
        shuttingDown = true;
        if (threads != null) {
            poller.shutdownNow();
            threads.shutdownNow();
        }
    }
}
