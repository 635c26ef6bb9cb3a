package io.durablebatch.runtime.job;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.DurableBatchConfig;
import io.durablebatch.runtime.lease.LeaseLiveness;
import io.durablebatch.runtime.lease.LeaseStore;
import io.durablebatch.runtime.lease.RateLimitedWarning;
import io.durablebatch.runtime.metrics.KernelMetrics;
import io.durablebatch.runtime.observe.ExecutionObserver;
import io.durablebatch.runtime.observe.ExecutionObservers;
import io.durablebatch.runtime.sql.BatchThread;
import io.quarkus.arc.Arc;
import io.quarkus.arc.ManagedContext;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.ShutdownEvent;

/**
 * The job executions this process runs, on its own pool of {@code executor.max-concurrency}
 * threads: job executions block for minutes on JDBC and must not occupy the application's worker
 * or event-loop threads.
 */
@Singleton
public class RunningExecutions {

    private static final Logger LOG = Logger.getLogger(RunningExecutions.class);

    private final KernelRepository repository;
    private final StepRunners steps;
    private final FlowRoutes routes;
    private final KernelIdentity identity;
    private final LeaseStore leases;
    private final StepLeases stepLeases;
    private final OwnerLossRestarts restarts;
    private final ScheduledExecutorService poller;
    private final ThreadPoolExecutor executor;
    private final ConcurrentMap<JobExecutionId, ExecutionHandle> running = new ConcurrentHashMap<>();
    private final Duration shutdownTimeout;
    private final KernelMetrics metrics;
    private final LeaseLiveness liveness;
    private final ExecutionObservers observers;
    private final RateLimitedWarning renewalFailures = new RateLimitedWarning(LOG, "Renewing this process's leases",
            Duration.ofMinutes(1));

    RunningExecutions(KernelRepository repository, StepRunners steps, FlowRoutes routes, KernelIdentity identity,
            LeaseStore leases, StepLeases stepLeases, OwnerLossRestarts restarts, DurableBatchConfig config,
            Instance<KernelMetrics> metrics, LeaseLiveness liveness, ExecutionObservers observers) {
        this.liveness = liveness;
        this.observers = observers;
        this.restarts = restarts;
        this.metrics = KernelMetrics.of(metrics);
        this.repository = repository;
        this.leases = leases;
        this.stepLeases = stepLeases;
        this.steps = steps;
        this.routes = routes;
        this.identity = identity;
        this.shutdownTimeout = config.shutdown().timeout();
        int threads = config.executor().maxConcurrency();
        if (threads < 1) {
            throw new IllegalArgumentException("quarkus.durable-batch.executor.max-concurrency must be at least 1, got "
                    + threads);
        }
        this.executor = new ThreadPoolExecutor(threads, threads, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>(),
                threadFactory(Thread.currentThread().getContextClassLoader()));
        executor.allowCoreThreadTimeOut(true);
        long poll = config.control().pollInterval().toMillis();
        if (poll <= 0) {
            throw new IllegalArgumentException("quarkus.durable-batch.control.poll-interval must be positive, got "
                    + config.control().pollInterval());
        }
        // a lease is renewed three times per duration: two renewals may fail before it runs out
        poll = Math.max(1, Math.min(poll, config.lease().duration().toMillis() / 3));
        ClassLoader classLoader = Thread.currentThread().getContextClassLoader();
        this.poller = Executors.newSingleThreadScheduledExecutor(task -> {
            return new BatchThread(task, "durable-batch-heartbeat", classLoader, true);
        });
        poller.scheduleWithFixedDelay(this::renewLeases, poll, poll, TimeUnit.MILLISECONDS);
    }

    /**
     * The heartbeat: at least once per poll interval (and per third of the lease), one statement
     * renews the leases of every execution and step attempt this process runs and reads their pending
     * stop requests, whatever their chunks do (a long chunk, a tasklet, a parent waiting for
     * partitions). A stop request raises the execution's stop signal; an execution that is no longer
     * ours (recovered by another node after our lease ran out) is fenced: it stops and records nothing.
     */
    private void renewLeases() {
        Collection<ExecutionHandle> handles = all();
        Set<StepExecutionId> steps = stepLeases.held();
        if (handles.isEmpty() && steps.isEmpty()) {
            liveness.idle();
            return;
        }
        liveness.renewing();
        List<JobExecutionId> ids = handles.stream().filter(handle -> !handle.isEnded()).map(ExecutionHandle::id).toList();
        LeaseStore.Renewal renewal;
        long sentAt = System.nanoTime();
        try {
            renewal = QuarkusTransaction.requiringNew().call(() -> leases.renew(identity.owner(), ids, steps));
        } catch (RuntimeException e) {
            long failures = liveness.failed();
            metrics.renewalFailed();
            renewalFailures.failed(new IllegalStateException("the leases of " + ids.size() + " execution(s) and "
                    + steps.size() + " step(s), last confirmed " + liveness.sinceConfirmed().toMillis() + " ms ago ("
                    + failures + " failure(s)); lease " + liveness.lease() + ": " + e.getMessage(), e));
            return;
        }
        liveness.confirmed(sentAt);
        renewalFailures.succeeded();
        for (ExecutionHandle handle : handles) {
            if (!renewal.executions().contains(handle.id()) && !handle.isEnded()) {
                handle.lost("it is no longer active under this process's owner token " + identity.owner()
                        + " (recovered by another node after its lease ran out, or ended)");
            } else if (renewal.stopRequested().contains(handle.id())) {
                handle.leaseConfirmed(sentAt);
                handle.requestStop();
            } else {
                handle.leaseConfirmed(sentAt);
            }
        }
        stepLeases.renewed(steps, renewal.steps());
    }

    /** The executions running in this process, whose leases its heartbeat renews: no sweep of its own recovers them. */
    Set<JobExecutionId> runningHere() {
        return Set.copyOf(running.keySet());
    }

    /** Runs a launched execution on the kernel's threads, unless it runs here already. */
    ExecutionHandle submit(KernelJobOperator.Launch launch) {
        JobExecutionId id = launch.execution().id();
        ExecutionHandle handle = new ExecutionHandle(id, liveness);
        ExecutionHandle already = running.putIfAbsent(id, handle);
        if (already != null) {
            return already; // two retries of one request: one runner per execution
        }
        // captured on the launching thread (a request's, a schedule's): the execution's trace links to it
        Object launching = observers.launching(launch.execution());
        executor.execute(() -> run(handle, launch, launching, new ExecutionRunner(repository, steps, routes, launch,
                handle, identity.owner(), restarts)));
        return handle;
    }

    /**
     * Whether an execution launched now would run at once: fewer executions are here than threads.
     * Two racing launches may both be told so; then one waits for the other, as any launch may.
     */
    boolean runsAtOnce() {
        return running.size() < executor.getMaximumPoolSize();
    }

    Optional<ExecutionHandle> find(JobExecutionId id) {
        return Optional.ofNullable(running.get(id));
    }

    Collection<ExecutionHandle> all() {
        return List.copyOf(running.values());
    }

    private void run(ExecutionHandle handle, KernelJobOperator.Launch launch, Object launching, ExecutionRunner runner) {
        String job = launch.definition().name().value();
        ManagedContext requestContext = Arc.container().requestContext();
        requestContext.activate();
        metrics.executionStarted(job);
        ExecutionObserver.Observation<JobExecution> observed = observers.job(launch.execution(), launching);
        try {
            JobExecution ended = runner.run();
            // counted before the end is handed to whoever awaits it, so that what they read next counts it
            metrics.executionEnded(job, ended.status());
            observed.ended(ended);
            observed.close();
            handle.ended(ended);
        } catch (Throwable e) {
            // the heartbeat no longer renews its lease: once it runs out, any node recovers it
            LOG.errorf(e, "Job execution %s could not record its end: it is left to recovery once its lease runs out",
                    handle.id());
            metrics.executionEnded(job, ExecutionStatus.UNKNOWN);
            observed.failed(e);
            observed.close();
            handle.crashed(e);
        } finally {
            requestContext.terminate();
            running.remove(handle.id(), handle);
        }
    }

    /**
     * Graceful shutdown: asks every execution of this process to stop at its next chunk boundary and
     * waits up to the shutdown timeout for them to end STOPPED. Runs before the datasource closes.
     */
    void onShutdown(@Observes ShutdownEvent event) {
        stopAll(shutdownTimeout);
    }

    /** Asks every execution of this process to stop and waits up to {@code timeout} for them; returns those still running. */
    public List<JobExecutionId> stopAll(Duration timeout) {
        Collection<ExecutionHandle> handles = all();
        if (handles.isEmpty()) {
            return List.of();
        }
        LOG.infof("Stopping %d job execution(s) at their next chunk boundary", handles.size());
        handles.forEach(ExecutionHandle::requestStop);
        // executions still waiting for a thread end STOPPED now, here: none is left STARTING behind
        List<Runnable> waiting = new ArrayList<>();
        executor.getQueue().drainTo(waiting);
        waiting.forEach(Runnable::run);
        long deadline = System.nanoTime() + timeout.toNanos();
        for (ExecutionHandle handle : handles) {
            try {
                handle.await(Optional.of(Duration.ofNanos(Math.max(0, deadline - System.nanoTime()))));
            } catch (TimeoutException e) {
                break;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (IllegalStateException e) {
                // could not record its end: recovery resolves it
            }
        }
        List<JobExecutionId> left = handles.stream().filter(handle -> !handle.isEnded()).map(ExecutionHandle::id).toList();
        if (!left.isEmpty()) {
            LOG.warnf("Job execution(s) %s did not stop within %s: they stay active until they are recovered", left,
                    timeout);
        }
        return left;
    }

    @PreDestroy
    void close() {
        poller.shutdownNow();
        executor.shutdownNow();
    }

    private static ThreadFactory threadFactory(ClassLoader classLoader) {
        AtomicInteger count = new AtomicInteger();
        return task -> {
            return new BatchThread(task, "durable-batch-execution-" + count.incrementAndGet(), classLoader, false);
        };
    }
}
