package io.durablebatch.runtime.job;

import java.time.Duration;
import java.util.OptionalLong;

import org.jboss.logging.Logger;

import io.durablebatch.execution.StepCounters;

/**
 * Logs a running step's progress at most once per interval, from the thread that runs it: items
 * read and written, the rate since the attempt started and, when the reader knows its size, the
 * estimated time to the end. Costs one clock read per chunk.
 */
final class ProgressLog {

    private static final Logger LOG = Logger.getLogger(ProgressLog.class);

    /** Creates the progress log of each step attempt, with the configured interval. */
    record Factory(Duration interval) {

        ProgressLog start(StepAttempt attempt, OptionalLong size) {
            return new ProgressLog(describe(attempt), interval.toNanos(), size, System.nanoTime());
        }

        private static String describe(StepAttempt attempt) {
            return "Step '" + attempt.step().name() + "' of job '" + attempt.context().jobName() + "' (execution "
                    + attempt.context().jobExecutionId() + ")";
        }
    }

    private final String subject;
    private final long intervalNanos;
    private final OptionalLong size;
    private final long startedAt;
    private long lastLoggedAt;

    private ProgressLog(String subject, long intervalNanos, OptionalLong size, long startedAt) {
        this.subject = subject;
        this.intervalNanos = intervalNanos;
        this.size = size;
        this.startedAt = startedAt;
        this.lastLoggedAt = startedAt;
    }

    void chunkCommitted(StepCounters total) {
        long now = System.nanoTime();
        if (now - lastLoggedAt >= intervalNanos) {
            lastLoggedAt = now;
            LOG.info(report(total, now));
        }
    }

    /** Logs the attempt's totals once its input is exhausted. */
    void ended(StepCounters total) {
        long now = System.nanoTime();
        LOG.infof("%s, input exhausted after %s", report(total, now, false),
                Duration.ofMillis((now - startedAt) / 1_000_000));
    }

    /** The progress line, e.g. {@code 120000 read, 119990 written, 8312 items/s, ETA PT1M45S}. */
    String report(StepCounters total, long now) {
        return report(total, now, true);
    }

    private String report(StepCounters total, long now, boolean withEta) {
        double seconds = Math.max(1e-9, (now - startedAt) / 1e9);
        double rate = total.readCount() / seconds;
        StringBuilder line = new StringBuilder(subject).append(": ").append(total.readCount()).append(" read, ")
                .append(total.writeCount()).append(" written");
        if (total.skipCount() > 0) {
            line.append(", ").append(total.skipCount()).append(" skipped");
        }
        line.append(", ").append(Math.round(rate)).append(" items/s");
        if (withEta && size.isPresent() && rate > 0) {
            long remaining = Math.max(0, size.getAsLong() - total.readCount());
            line.append(", ").append(remaining).append(" to go, ETA ")
                    .append(Duration.ofSeconds(Math.round(remaining / rate)));
        }
        return line.toString();
    }
}
