package io.durablebatch.runtime.job;

import java.time.temporal.ChronoUnit;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

import io.durablebatch.job.ChunkStep;
import io.durablebatch.runtime.sql.TransientFailures;
import io.smallrye.faulttolerance.api.Guard;

/**
 * Re-runs a whole unit of work (one chunk or tasklet call, each in a new transaction) after a
 * transient failure, with exponential backoff, through SmallRye Fault Tolerance's programmatic API.
 * The retried callable opens its own transaction per attempt: retrying inside one transaction could
 * never succeed, as PostgreSQL aborts a transaction at its first error.
 * <p>
 * The first try runs outside the guard, which is entered only after a transient failure: a guarded
 * call costs about 30 µs of CPU, a tenth of a chunk's own (benchmarks.adoc, "The chunk path's own
 * cost"), and almost every unit of work succeeds at its first try. The delays are those of one guard
 * retrying from the first try: {@code initialDelay} before the second, doubling up to {@code maxDelay}.
 */
final class UnitOfWorkRetry {

    private final String description;
    private final ChunkStep.Retry retry;
    private final Consumer<Throwable> onRetry;
    // the tries after the second one, built at the first retry that has any
    private Guard laterTries;

    /** Retries as {@code retry} says; {@code onRetry} sees each failure that is retried. */
    UnitOfWorkRetry(String description, ChunkStep.Retry retry, Consumer<Throwable> onRetry) {
        this.description = description;
        this.retry = retry;
        this.onRetry = onRetry;
    }

    /** Runs {@code work}; after a transient failure, runs it again as long as the retry limit allows. */
    <T> T call(Callable<T> work, Class<T> type) throws Exception {
        try {
            return work.call();
        } catch (Exception failure) {
            if (retry.limit() == 0 || !TransientFailures.isTransient(failure)) {
                throw failure;
            }
            onRetry.accept(failure);
        }
        Thread.sleep(retry.initialDelay().toMillis());
        if (retry.limit() == 1) {
            return work.call();
        }
        if (laterTries == null) {
            laterTries = laterTries();
        }
        return laterTries.call(work, type);
    }

    /**
     * The second try and those after it: one retry fewer, each delay the one the try before it waited,
     * doubled, up to the maximum (a constant delay once the doubled one reaches it: SmallRye's backoff
     * wants its maximum above its first delay).
     */
    private Guard laterTries() {
        long max = Math.max(1, retry.maxDelay().toMillis());
        long second = Math.max(1, Math.min(max, 2 * retry.initialDelay().toMillis()));
        Guard.Builder.RetryBuilder retries = Guard.create().withDescription(description)
                .withRetry()
                .maxRetries(retry.limit() - 1)
                .delay(second, ChronoUnit.MILLIS)
                .jitter(0, ChronoUnit.MILLIS)
                .maxDuration(0, ChronoUnit.MILLIS)
                .whenException(TransientFailures::isTransient)
                .beforeRetry(onRetry);
        if (second < max) {
            retries.withExponentialBackoff().factor(2).maxDelay(max, ChronoUnit.MILLIS).done();
        }
        return retries.done().build();
    }
}
