package io.durablebatch.runtime.job;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.runtime.lease.LeaseLiveness;

/** A job execution that runs (or waits to run) in this process: its stop signal and its end. */
final class ExecutionHandle implements StopSignal {

    private final JobExecutionId id;
    private final CompletableFuture<JobExecution> ended = new CompletableFuture<>();
    private volatile boolean stopRequested;
    private volatile String lostBecause;
    private volatile boolean repositoryLost;
    private final LeaseLiveness liveness;
    /** When the lease was last confirmed ({@link System#nanoTime()}): the launch's claim, then each renewal. */
    private volatile long leaseConfirmedAt = System.nanoTime();

    ExecutionHandle(JobExecutionId id, LeaseLiveness liveness) {
        this.id = id;
        this.liveness = liveness;
    }

    /** A renewal sent at {@code sentAt} confirmed the execution's lease. */
    void leaseConfirmed(long sentAt) {
        leaseConfirmedAt = sentAt;
    }

    @Override
    public Optional<String> leaseLapsed() {
        long confirmed = leaseConfirmedAt;
        if (!liveness.lapsed(confirmed)) {
            return Optional.empty();
        }
        return Optional.of("the lease of job execution " + id + " was last confirmed "
                + Duration.ofNanos(System.nanoTime() - confirmed).toMillis() + " ms ago, longer than the lease ("
                + liveness.lease() + "): it may have run out, and another node may have recovered the execution");
    }

    JobExecutionId id() {
        return id;
    }

    /** Asks the execution to stop at its next chunk boundary. */
    @Override
    public void requestStop() {
        stopRequested = true;
    }

    @Override
    public boolean stopRequested() {
        return stopRequested;
    }

    /**
     * The execution is no longer this process's to run (another node recovered it after its lease ran
     * out): it stops at once and records nothing more; its next commit would be refused anyway.
     */
    void lost(String why) {
        lostBecause = why;
        stopRequested = true;
    }

    @Override
    public void repositoryLost(Throwable failure) {
        repositoryLost = true;
    }

    /** Whether a step failed because the repository was out of reach. */
    boolean repositoryLost() {
        return repositoryLost;
    }

    /** Why the execution is no longer ours, if it is not. */
    Optional<String> lostBecause() {
        return Optional.ofNullable(lostBecause);
    }

    void ended(JobExecution execution) {
        ended.complete(execution);
    }

    void crashed(Throwable failure) {
        ended.completeExceptionally(failure);
    }

    boolean isEnded() {
        return ended.isDone();
    }

    /** The execution as it ended, waiting at most {@code timeout} (or without a limit). */
    JobExecution await(Optional<Duration> timeout) throws TimeoutException, InterruptedException {
        try {
            return timeout.isEmpty() ? ended.get() : ended.get(timeout.get().toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("job execution " + id + " could not record its end; it stays active "
                    + "until it is recovered", e.getCause());
        }
    }
}
