package io.durablebatch.runtime.job;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.durablebatch.repository.JobExecution;
import io.durablebatch.repository.JobExecutionId;

/** A job execution that runs (or waits to run) in this process: its stop signal and its end. */
final class ExecutionHandle implements StopSignal {

    private final JobExecutionId id;
    private final CompletableFuture<JobExecution> ended = new CompletableFuture<>();
    private volatile boolean stopRequested;

    ExecutionHandle(JobExecutionId id) {
        this.id = id;
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
