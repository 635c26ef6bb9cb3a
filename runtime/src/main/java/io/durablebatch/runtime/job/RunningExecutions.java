package io.durablebatch.runtime.job;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
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
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.JobParameters;
import io.durablebatch.repository.JobExecution;
import io.durablebatch.repository.JobExecutionId;
import io.durablebatch.operator.ExecutionControl;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.runtime.DurableBatchConfig;
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

    private final JobRepository repository;
    private final StepRunners steps;
    private final FlowRoutes routes;
    private final KernelIdentity identity;
    private final ScheduledExecutorService poller;
    private final ThreadPoolExecutor executor;
    private final ConcurrentMap<JobExecutionId, ExecutionHandle> running = new ConcurrentHashMap<>();
    private final Duration shutdownTimeout;

    RunningExecutions(JobRepository repository, StepRunners steps, FlowRoutes routes, KernelIdentity identity,
            DurableBatchConfig config) {
        this.repository = repository;
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
        ClassLoader classLoader = Thread.currentThread().getContextClassLoader();
        this.poller = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "durable-batch-control");
            thread.setDaemon(true);
            thread.setContextClassLoader(classLoader);
            return thread;
        });
        poller.scheduleWithFixedDelay(this::observeControl, poll, poll, TimeUnit.MILLISECONDS);
    }

    /**
     * The control poller: every running execution observes its control at least once per poll
     * interval, whatever its chunks do (a long chunk, a tasklet, a parent waiting for partitions).
     * A stop request, or an execution that is no longer ours to run (recovered elsewhere), raises
     * its stop signal.
     */
    private void observeControl() {
        for (ExecutionHandle handle : all()) {
            if (handle.stopRequested() || handle.isEnded()) {
                continue;
            }
            try {
                ExecutionControl control = QuarkusTransaction.requiringNew().call(() -> repository
                        .observeExecutionControl(handle.id(), identity.owner(), Instant.now()));
                if (control.stopRequested()) {
                    handle.requestStop();
                }
            } catch (RepositoryException e) {
                if (e.error() == RepositoryError.EXECUTION_NOT_ACTIVE || e.error() == RepositoryError.OWNER_MISMATCH) {
                    LOG.warnf("Job execution %s is no longer ours to run (%s): stopping it", handle.id(), e.getMessage());
                    handle.requestStop();
                } else {
                    LOG.debugf(e, "Observing the control of job execution %s failed; trying again later", handle.id());
                }
            } catch (RuntimeException e) {
                LOG.debugf(e, "Observing the control of job execution %s failed; trying again later", handle.id());
            }
        }
    }

    /** Runs a recorded STARTING execution on the kernel's threads. */
    ExecutionHandle submit(JobExecution execution, JobDefinition definition, JobParameters parameters) {
        ExecutionHandle handle = new ExecutionHandle(execution.id());
        running.put(execution.id(), handle);
        executor.execute(() -> run(handle, new ExecutionRunner(repository, steps, routes, definition, parameters, handle,
                identity.owner(), execution)));
        return handle;
    }

    Optional<ExecutionHandle> find(JobExecutionId id) {
        return Optional.ofNullable(running.get(id));
    }

    Collection<ExecutionHandle> all() {
        return List.copyOf(running.values());
    }

    private void run(ExecutionHandle handle, ExecutionRunner runner) {
        ManagedContext requestContext = Arc.container().requestContext();
        requestContext.activate();
        try {
            handle.ended(runner.run());
        } catch (Throwable e) {
            LOG.errorf(e, "Job execution %s could not record its end: it stays active until it is recovered", handle.id());
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
            Thread thread = new Thread(task, "durable-batch-execution-" + count.incrementAndGet());
            thread.setContextClassLoader(classLoader);
            return thread;
        };
    }
}
