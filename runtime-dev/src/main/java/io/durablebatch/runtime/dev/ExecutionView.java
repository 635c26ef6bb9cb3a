package io.durablebatch.runtime.dev;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import io.durablebatch.execution.ExecutionFailure;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecution;

/**
 * One job execution in the Dev UI's list: its status and its progress, the items its steps read,
 * wrote and skipped (their durable counters, as of their last committed chunk; a partitioned step
 * counts through its workers, never twice), and where it can be
 * computed the progress and ETA of its running step ({@link Progress}). Times are ISO-8601 text,
 * absent ones {@code null}.
 */
public record ExecutionView(long id, long instanceId, String jobName, int attempt, String status, String exitCode,
        String failure, String createdAt, String startedAt, String endedAt, long version, long readCount,
        long writeCount, long skipCount, Progress progress) {

    /** The view of {@code execution}, its counters summed over {@code counted}, the steps that count. */
    static ExecutionView of(JobExecution execution, String jobName, List<StepExecution> counted, Progress progress) {
        StepCounters total = counted.stream().map(StepExecution::counters).reduce(StepCounters.ZERO, StepCounters::plus);
        return new ExecutionView(execution.id().value(), execution.jobInstanceId().value(), jobName, execution.attempt(),
                execution.status().name(), execution.exitStatus().code(), failure(execution.failure()),
                text(execution.createdAt()), text(execution.startedAt()), text(execution.endedAt()),
                execution.version().value(), total.readCount(), total.writeCount(), total.skipCount(),
                progress);
    }

    static String failure(Optional<ExecutionFailure> failure) {
        return failure.map(f -> f.type() + ": " + f.message()).orElse(null);
    }

    static String text(Instant at) {
        return at.toString();
    }

    static String text(Optional<Instant> at) {
        return at.map(Instant::toString).orElse(null);
    }
}
