package io.durablebatch.runtime.job;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;

import io.durablebatch.job.ChunkStep;
import io.durablebatch.runtime.sql.TransientFailures;
import io.smallrye.faulttolerance.api.CustomBackoffStrategy;
import io.smallrye.faulttolerance.api.Guard;

/**
 * The kernel's one retry mechanism: re-runs a whole unit of work (a chunk, a tasklet call, a record
 * of the kernel's bookkeeping), each try in a new transaction, through a SmallRye Fault Tolerance
 * {@link Guard}. The retried callable opens its own transaction per try: retrying inside one
 * transaction could never succeed, as PostgreSQL aborts a transaction at its first error.
 * <p>
 * Every retry is the guard's: its delays, its limits, its {@code beforeRetry} callback and, where
 * Micrometer is present, its {@code ft.*} metrics, whose {@code method} tag is the guard's
 * description ({@link #CHUNK}, {@link #TASKLET}, {@link #BOOKKEEPING}). A chunk's or tasklet's first
 * try runs outside the guard, as a guarded call costs about 30 µs of CPU, a tenth of a chunk's own
 * (benchmarks.adoc, "The chunk path's own cost"), and almost every unit of work succeeds at its
 * first try: after a failure the guard takes over, its own first try handing it that failure
 * ({@link Replay}), so it decides and counts the first retry as it does the later ones.
 */
final class UnitOfWorkRetry {

    /** The guard of chunk transactions, as its metrics name it. */
    static final String CHUNK = "durable-batch.chunk";
    /** The guard of tasklet calls, as its metrics name it. */
    static final String TASKLET = "durable-batch.tasklet";
    /** The guard of the kernel's own records (starts, ends, routes, stops), as its metrics name it. */
    static final String BOOKKEEPING = "durable-batch.bookkeeping";

    private final Predicate<Throwable> retried;
    private final boolean firstTryGuarded;
    private final Supplier<Guard> guardBuilder;
    /**
     * The guard, built when first needed, never with the retry: at the first call of a retry whose every
     * try is guarded (the kernel's bookkeeping retry is built with the beans at startup, and a one-shot
     * run may never call it: 32 classes of the start, issue 29), at the first failure of one whose first
     * try runs unguarded (building one cost as much as a launch's statement, for each step run, though
     * almost every unit of work succeeds at its first try). Threads may share a retry ({@link Bookkeeping}).
     */
    private volatile Guard guard;

    /**
     * Retries transient failures as {@code retry} says (limit, first delay doubling up to the maximum);
     * {@code onRetry} sees each failure that is retried.
     */
    UnitOfWorkRetry(String description, ChunkStep.Retry retry, Consumer<Throwable> onRetry) {
        this(description, retry.limit() == 0 ? failure -> false : TransientFailures::isTransient, false,
                retry.limit(), Duration.ZERO, new Doubling(retry.initialDelay(), retry.maxDelay(), failure -> false),
                onRetry);
    }

    private UnitOfWorkRetry(String description, Predicate<Throwable> retried, boolean firstTryGuarded,
            int maxRetries, Duration maxDuration, Doubling delays, Consumer<Throwable> onRetry) {
        this.retried = retried;
        this.firstTryGuarded = firstTryGuarded;
        this.guardBuilder = () -> Guard.create().withDescription(description)
                .withRetry()
                .maxRetries(maxRetries)
                .maxDuration(maxDuration.toMillis(), ChronoUnit.MILLIS)
                .jitter(0, ChronoUnit.MILLIS)
                .whenException(retried)
                .beforeRetry(onRetry)
                .withCustomBackoff().strategy(delays::start).done()
                .done()
                .build();
    }

    /**
     * Retries what {@code retried} accepts for {@code budget} (no try begins after it), each delay
     * {@code firstDelay} doubling up to {@code maxDelay}, but none after a failure {@code immediately}
     * accepts; every try runs in the guard, so the budget counts the first one too.
     */
    static UnitOfWorkRetry forBudget(String description, Duration budget, Predicate<Throwable> retried,
            Duration firstDelay, Duration maxDelay, Predicate<Throwable> immediately, Consumer<Throwable> onRetry) {
        return new UnitOfWorkRetry(description, retried, true, -1, budget,
                new Doubling(firstDelay, maxDelay, immediately), onRetry);
    }

    /** Runs {@code work}; after a failure it retries, runs it again as long as the guard allows. */
    <T> T call(Callable<T> work, Class<T> type) throws Exception {
        if (firstTryGuarded) {
            return guard().call(work, type);
        }
        try {
            return work.call();
        } catch (Exception failure) {
            if (!retried.test(failure)) {
                throw failure;
            }
            return guard().call(new Replay<>(failure, work), type);
        }
    }

    private Guard guard() {
        Guard built = guard;
        if (built == null) {
            synchronized (this) {
                built = guard;
                if (built == null) {
                    built = guardBuilder.get();
                    guard = built;
                }
            }
        }
        return built;
    }

    /**
     * Whether a guard was built: a unit of work whose first try runs unguarded and succeeds builds none,
     * a retry with a budget builds one at its first call.
     */
    boolean guardBuilt() {
        return guard != null;
    }

    /** The guard's first try hands it the failure of the unguarded first try; its retries run the work. */
    private static final class Replay<T> implements Callable<T> {
        private Exception firstFailure;
        private final Callable<T> work;

        Replay(Exception firstFailure, Callable<T> work) {
            this.firstFailure = firstFailure;
            this.work = work;
        }

        @Override
        public T call() throws Exception {
            Exception failure = firstFailure;
            if (failure != null) {
                firstFailure = null;
                throw failure;
            }
            return work.call();
        }
    }

    /**
     * The delays of one guarded call: the first one, doubled after each retry up to the maximum, and
     * none after a failure that is retried at once. A custom backoff rather than SmallRye's exponential
     * one, which wants its maximum above its first delay and knows no failure retried at once.
     */
    private record Doubling(Duration first, Duration max, Predicate<Throwable> immediately) {

        CustomBackoffStrategy start() {
            return new CustomBackoffStrategy() {
                private long next = first.toMillis();

                @Override
                public long nextDelayInMillis(Throwable cause) {
                    if (immediately.test(cause)) {
                        return 0;
                    }
                    long delay = next;
                    next = Math.min(max.toMillis(), 2 * next);
                    return delay;
                }
            };
        }
    }
}
