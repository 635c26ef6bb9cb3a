package io.durablebatch.runtime.job;

import java.time.temporal.ChronoUnit;
import java.util.function.Consumer;

import io.durablebatch.job.ChunkStep;
import io.durablebatch.runtime.sql.TransientFailures;
import io.smallrye.faulttolerance.api.Guard;

/**
 * Re-runs a whole unit of work (one chunk or tasklet call, each in a new transaction) after a
 * transient failure, with exponential backoff, through SmallRye Fault Tolerance's programmatic API.
 * The retried callable opens its own transaction per attempt: retrying inside one transaction could
 * never succeed, as PostgreSQL aborts a transaction at its first error.
 */
final class RetryGuards {

    private RetryGuards() {
    }

    /** A guard that retries transient failures; {@code onRetry} sees each failure that is retried. */
    static Guard transientFailures(String description, ChunkStep.Retry retry, Consumer<Throwable> onRetry) {
        Guard.Builder builder = Guard.create().withDescription(description);
        if (retry.limit() > 0) {
            long initial = Math.max(1, retry.initialDelay().toMillis());
            builder.withRetry()
                    .maxRetries(retry.limit())
                    .delay(initial, ChronoUnit.MILLIS)
                    .jitter(0, ChronoUnit.MILLIS)
                    .maxDuration(0, ChronoUnit.MILLIS)
                    .withExponentialBackoff().factor(2).maxDelay(Math.max(initial, retry.maxDelay().toMillis()),
                            ChronoUnit.MILLIS)
                    .done()
                    .whenException(TransientFailures::isTransient)
                    .beforeRetry(onRetry)
                    .done();
        }
        return builder.build();
    }
}
