package io.durablebatch.job;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;
import java.util.function.ToIntFunction;

import io.durablebatch.Checks;
import io.durablebatch.context.StepContext;
import io.durablebatch.item.ItemProcessor;
import io.durablebatch.item.ItemReader;
import io.durablebatch.item.ItemWriter;
import io.durablebatch.listener.BatchListener;
import io.durablebatch.listener.ChunkListener;
import io.durablebatch.listener.ItemProcessListener;
import io.durablebatch.listener.ItemReadListener;
import io.durablebatch.listener.ItemWriteListener;
import io.durablebatch.listener.Listeners;
import io.durablebatch.listener.RetryListener;
import io.durablebatch.listener.SkipListener;
import io.durablebatch.listener.StepListener;

/**
 * A chunk-oriented step: items are read one at a time, processed, and written in chunks of
 * {@code commitInterval} items. Each chunk is one JTA transaction holding the writer's writes and
 * the step's progress (reader checkpoint and counters), so after any crash a restart resumes after
 * the last committed chunk and no item is written twice.
 * <p>
 * Exceptions of a type given a skip limit are skipped (the item is dropped and counted) until the
 * step has skipped more than that many of the type. Transient database failures (serialization
 * failure, deadlock, lost connection) roll the chunk back and re-run it in a new transaction, up
 * to the retry limit, with exponential backoff. Any other exception fails the step.
 * <p>
 * Jakarta Batch's policies are here too: exceptions skipped by class ({@link #skipPolicy()}, with
 * one limit across classes), exceptions of the step's own code retried ({@link #retryPolicy()},
 * with or without rolling the chunk back) and chunks that end after a time limit or where a
 * {@link CheckpointAlgorithm} says ({@link #checkpointPolicy()}).
 */
public final class ChunkStep<I, O> implements Step {

    /** Retry of a chunk whose transaction failed transiently. */
    public record Retry(int limit, Duration initialDelay, Duration maxDelay) {

        public static final Retry DEFAULT = new Retry(3, Duration.ofMillis(50), Duration.ofSeconds(2));

        public Retry {
            Checks.notNegative(limit, "retry.limit");
            Checks.notNull(initialDelay, "retry.initialDelay");
            Checks.notNull(maxDelay, "retry.maxDelay");
            if (initialDelay.isNegative() || maxDelay.compareTo(initialDelay) < 0) {
                throw new IllegalArgumentException("retry delays must satisfy 0 <= initialDelay <= maxDelay, got "
                        + initialDelay + " and " + maxDelay);
            }
        }
    }

    /**
     * Exceptions skipped by class, beside the per-type {@link #skipLimits()}: those the filter
     * matches, up to {@code limit} skips in all (of every kind) per step attempt, no limit when
     * empty. A class the filter excludes is not skipped even where a per-type limit covers it.
     */
    public record SkipPolicy(ExceptionFilter skippable, OptionalInt limit) {

        public static final SkipPolicy NONE = new SkipPolicy(ExceptionFilter.NONE, OptionalInt.empty());

        public SkipPolicy {
            Checks.notNull(skippable, "skippable");
            Checks.notNull(limit, "skip limit");
            limit.ifPresent(value -> Checks.notNegative(value, "skip limit"));
        }
    }

    /**
     * Exceptions of the step's reader, processor and writer that are retried: those {@code retryable}
     * matches, up to {@code limit} retries in all per step attempt (no limit when empty). One that
     * {@code noRollback} matches too is retried in place (the same read, process or write again, in
     * the same transaction); any other rolls the chunk back, and its items are read again and
     * committed one chunk per item, where a skippable exception is skipped rather than retried.
     */
    public record RetryPolicy(ExceptionFilter retryable, ExceptionFilter noRollback, OptionalInt limit) {

        public static final RetryPolicy NONE = new RetryPolicy(ExceptionFilter.NONE, ExceptionFilter.NONE,
                OptionalInt.empty());

        public RetryPolicy {
            Checks.notNull(retryable, "retryable");
            Checks.notNull(noRollback, "noRollback");
            Checks.notNull(limit, "retry limit");
            limit.ifPresent(value -> Checks.notNegative(value, "retry limit"));
        }
    }

    /**
     * Where chunks end besides the commit interval: after {@code timeLimit} from the chunk's first
     * read (whichever comes first), or where each attempt's {@link CheckpointAlgorithm} says, in place
     * of both.
     */
    public record CheckpointPolicy(Optional<Duration> timeLimit,
            Optional<Function<StepContext, ? extends CheckpointAlgorithm>> algorithm) {

        public static final CheckpointPolicy ITEM_COUNT = new CheckpointPolicy(Optional.empty(), Optional.empty());

        public CheckpointPolicy {
            Checks.notNull(timeLimit, "time limit");
            Checks.notNull(algorithm, "checkpoint algorithm");
            timeLimit.ifPresent(limit -> {
                if (limit.isNegative() || limit.isZero()) {
                    throw new IllegalArgumentException("time limit must be positive, got " + limit);
                }
            });
            if (timeLimit.isPresent() && algorithm.isPresent()) {
                throw new IllegalArgumentException("a checkpoint algorithm decides alone where chunks end: "
                        + "a time limit beside it would never apply");
            }
        }
    }

    private final StepSettings settings;
    private final int commitInterval;
    private final Optional<ToIntFunction<StepContext>> attemptCommitInterval;
    private final Function<StepContext, ? extends ItemReader<? extends I>> reader;
    private final Optional<Function<StepContext, ? extends ItemProcessor<? super I, ? extends O>>> processor;
    private final Function<StepContext, ? extends ItemWriter<? super O>> writer;
    private final Map<Class<? extends Throwable>, Integer> skipLimits;
    private final Retry retry;
    private final Policies policies;
    private final Listeners listeners;

    /** The listener kinds a chunk step calls. */
    static final List<Class<? extends BatchListener>> LISTENED = List.of(StepListener.class, ChunkListener.class,
            SkipListener.class, RetryListener.class, ItemReadListener.class, ItemProcessListener.class,
            ItemWriteListener.class);

    /** How a skippable write failure is skipped. */
    public enum WriteSkips {
        /**
         * The chunk rolls back, each of its items is written alone in a transaction that is rolled
         * back to find those the writer refuses, and the chunk commits once without them: each
         * refused item is one write skip.
         */
        ITEM_BY_ITEM,
        /**
         * The write is skipped whole, in the chunk's transaction, which commits without it: one
         * write skip per refused write, as Jakarta Batch skips a {@code writeItems}. Fit for a
         * writer whose failed write leaves the transaction usable (not a failed SQL statement,
         * which aborts a PostgreSQL transaction) and that must not see its items again.
         */
        WHOLE_WRITE
    }

    /** The Jakarta Batch policies of a step, kept together. */
    private record Policies(SkipPolicy skip, RetryPolicy retry, CheckpointPolicy checkpoint, WriteSkips writeSkips,
            AttemptLimits attempt) {
    }

    /**
     * The limits each step attempt is given as it opens, in place of the declared ones: like the
     * commit interval they are tuning, not part of the job's plan.
     */
    private record AttemptLimits(Optional<ToIntFunction<StepContext>> skip, Optional<ToIntFunction<StepContext>> retry,
            Optional<Function<StepContext, Duration>> time) {

        static final AttemptLimits NONE = new AttemptLimits(Optional.empty(), Optional.empty(), Optional.empty());
    }

    private ChunkStep(StepSettings settings, int commitInterval, Optional<ToIntFunction<StepContext>> attemptCommitInterval,
            Function<StepContext, ? extends ItemReader<? extends I>> reader,
            Optional<Function<StepContext, ? extends ItemProcessor<? super I, ? extends O>>> processor,
            Function<StepContext, ? extends ItemWriter<? super O>> writer,
            Map<Class<? extends Throwable>, Integer> skipLimits, Retry retry, Policies policies, Listeners listeners) {
        this.listeners = listeners;
        this.policies = policies;
        this.settings = settings;
        this.commitInterval = commitInterval;
        this.attemptCommitInterval = attemptCommitInterval;
        this.reader = reader;
        this.processor = processor;
        this.writer = writer;
        this.skipLimits = Collections.unmodifiableMap(new LinkedHashMap<>(skipLimits));
        this.retry = retry;
    }

    @Override
    public StepSettings settings() {
        return settings;
    }

    @Override
    public String kind() {
        return "chunk";
    }

    /** The commit interval the step was declared with; an attempt may have another ({@link #commitInterval(StepContext)}). */
    public int commitInterval() {
        return commitInterval;
    }

    /**
     * The commit interval of the attempt {@code context} belongs to: the one
     * {@link Builder#commitInterval(ToIntFunction)} gives it, else the declared one.
     *
     * @throws IllegalArgumentException if the attempt's is not 1 or more
     */
    public int commitInterval(StepContext context) {
        if (attemptCommitInterval.isEmpty()) {
            return commitInterval;
        }
        int interval = attemptCommitInterval.get().applyAsInt(context);
        Checks.positive(interval, "commit interval of step '" + settings.name() + "'");
        return interval;
    }

    /** Creates the reader of one step attempt; the kernel opens and closes it. */
    public Function<StepContext, ? extends ItemReader<? extends I>> reader() {
        return reader;
    }

    /**
     * Creates the processor of one step attempt, if the step has one: a processor given to
     * {@link Builder#processor} is returned by every call, one given to {@link Builder#attemptProcessor}
     * is created per attempt, as readers and writers are.
     */
    public Optional<Function<StepContext, ? extends ItemProcessor<? super I, ? extends O>>> processor() {
        return processor;
    }

    /**
     * Gives each step attempt its writer. A {@link io.durablebatch.item.RestartableItemWriter} is
     * opened from, and checkpointed with, the step's checkpoint next to the reader's.
     */
    public Function<StepContext, ? extends ItemWriter<? super O>> writer() {
        return writer;
    }

    /** How many exceptions of each type (and its subtypes) a step attempt may skip. */
    public Map<Class<? extends Throwable>, Integer> skipLimits() {
        return skipLimits;
    }

    public Retry retry() {
        return retry;
    }

    /** The skip policy the step was declared with; an attempt may have another limit ({@link #skipPolicy(StepContext)}). */
    public SkipPolicy skipPolicy() {
        return policies.skip();
    }

    /**
     * The skip policy of the attempt {@code context} belongs to: its limit the one
     * {@link Builder#skipLimit(ToIntFunction)} gives it, else the declared one. Asked once, as the
     * attempt opens.
     *
     * @throws IllegalArgumentException if the attempt's limit is negative
     */
    public SkipPolicy skipPolicy(StepContext context) {
        SkipPolicy declared = policies.skip();
        return policies.attempt().skip().map(limit -> new SkipPolicy(declared.skippable(),
                OptionalInt.of(attemptLimit(limit.applyAsInt(context), "skip limit")))).orElse(declared);
    }

    /** The retry policy the step was declared with; an attempt may have another limit ({@link #retryPolicy(StepContext)}). */
    public RetryPolicy retryPolicy() {
        return policies.retry();
    }

    /**
     * The retry policy of the attempt {@code context} belongs to: its limit the one
     * {@link Builder#retryLimit(ToIntFunction)} gives it, else the declared one. Asked once, as the
     * attempt opens.
     *
     * @throws IllegalArgumentException if the attempt's limit is negative
     */
    public RetryPolicy retryPolicy(StepContext context) {
        RetryPolicy declared = policies.retry();
        return policies.attempt().retry().map(limit -> new RetryPolicy(declared.retryable(), declared.noRollback(),
                OptionalInt.of(attemptLimit(limit.applyAsInt(context), "retry limit")))).orElse(declared);
    }

    /**
     * The checkpoint policy the step was declared with; an attempt may have another time limit
     * ({@link #checkpointPolicy(StepContext)}).
     */
    public CheckpointPolicy checkpointPolicy() {
        return policies.checkpoint();
    }

    /**
     * The checkpoint policy of the attempt {@code context} belongs to: its time limit the one
     * {@link Builder#timeLimit(Function)} gives it (none for zero), else the declared one. Asked once,
     * as the attempt opens.
     *
     * @throws IllegalArgumentException if the attempt's time limit is null or negative
     */
    public CheckpointPolicy checkpointPolicy(StepContext context) {
        CheckpointPolicy declared = policies.checkpoint();
        if (policies.attempt().time().isEmpty()) {
            return declared;
        }
        String field = "time limit of step '" + settings.name() + "'";
        Duration limit = Checks.notNull(policies.attempt().time().get().apply(context), field);
        if (limit.isNegative()) {
            throw new IllegalArgumentException(field + " must not be negative, got " + limit);
        }
        return new CheckpointPolicy(limit.isZero() ? Optional.empty() : Optional.of(limit), declared.algorithm());
    }

    private int attemptLimit(int limit, String what) {
        Checks.notNegative(limit, what + " of step '" + settings.name() + "'");
        return limit;
    }

    public WriteSkips writeSkips() {
        return policies.writeSkips();
    }

    /** The listeners declared on this step, in declaration order; not part of the plan. */
    public Listeners listeners() {
        return listeners;
    }

    public ChunkStep<I, O> withId(String nodeId) {
        return new ChunkStep<>(settings.withNodeId(nodeId), commitInterval, attemptCommitInterval, reader, processor, writer,
                skipLimits, retry,
                policies, listeners);
    }

    @Override
    public ChunkStep<I, O> withStartLimit(int startLimit) {
        return new ChunkStep<>(settings.withStartLimit(startLimit), commitInterval, attemptCommitInterval, reader, processor,
                writer, skipLimits,
                retry, policies, listeners);
    }

    @Override
    public ChunkStep<I, O> withStartLimit(ParameterizedValue startLimit) {
        return new ChunkStep<>(settings.withStartLimit(startLimit), commitInterval, attemptCommitInterval, reader, processor,
                writer, skipLimits,
                retry, policies, listeners);
    }

    @Override
    public ChunkStep<I, O> withAllowStartIfComplete(boolean allowStartIfComplete) {
        return new ChunkStep<>(settings.withAllowStartIfComplete(allowStartIfComplete), commitInterval, attemptCommitInterval,
                reader, processor,
                writer, skipLimits, retry, policies, listeners);
    }

    @Override
    public ChunkStep<I, O> withAllowStartIfComplete(ParameterizedValue allowStartIfComplete) {
        return new ChunkStep<>(settings.withAllowStartIfComplete(allowStartIfComplete), commitInterval, attemptCommitInterval,
                reader, processor,
                writer, skipLimits, retry, policies, listeners);
    }

    @Override
    public String toString() {
        return "ChunkStep[" + settings.nodeId() + "]";
    }

    /** The first stage of the builder: a chunk step needs a reader. */
    public static final class ReaderStage {
        private final StepSettings settings;
        private final int commitInterval;

        ReaderStage(StepSettings settings, int commitInterval) {
            this.settings = settings;
            this.commitInterval = commitInterval;
        }

        /** The factory of each step attempt's reader; it may read the context's job parameters. */
        public <T> Builder<T, T> reader(Function<StepContext, ? extends ItemReader<? extends T>> reader) {
            return new Builder<>(settings, commitInterval, Checks.notNull(reader, "reader"), Optional.empty());
        }
    }

    /** Configures a chunk step; {@link #build()} needs a writer. */
    public static final class Builder<I, O> {
        private StepSettings settings;
        private final int commitInterval;
        private Optional<ToIntFunction<StepContext>> attemptCommitInterval = Optional.empty();
        private final Function<StepContext, ? extends ItemReader<? extends I>> reader;
        private final Optional<Function<StepContext, ? extends ItemProcessor<? super I, ? extends O>>> processor;
        private Function<StepContext, ? extends ItemWriter<? super O>> writer;
        private final Map<Class<? extends Throwable>, Integer> skipLimits = new LinkedHashMap<>();
        private Retry retry = Retry.DEFAULT;
        private SkipPolicy skipPolicy = SkipPolicy.NONE;
        private RetryPolicy retryPolicy = RetryPolicy.NONE;
        private CheckpointPolicy checkpointPolicy = CheckpointPolicy.ITEM_COUNT;
        private AttemptLimits attemptLimits = AttemptLimits.NONE;
        private WriteSkips writeSkips = WriteSkips.ITEM_BY_ITEM;
        private Listeners listeners = Listeners.NONE;

        private Builder(StepSettings settings, int commitInterval,
                Function<StepContext, ? extends ItemReader<? extends I>> reader,
                Optional<Function<StepContext, ? extends ItemProcessor<? super I, ? extends O>>> processor) {
            this.settings = settings;
            this.commitInterval = commitInterval;
            this.reader = reader;
            this.processor = processor;
        }

        /**
         * Transforms each item; a processor returning {@code null} filters the item out. The same
         * processor serves every step attempt and partition worker, so it must be safe to share; one
         * that keeps state belongs in {@link #attemptProcessor}.
         */
        public <P> Builder<I, P> processor(ItemProcessor<? super I, ? extends P> processor) {
            Checks.notNull(processor, "processor");
            return this.<P> attemptProcessor(context -> processor);
        }

        /**
         * Gives each step attempt, and each partition worker, a processor of its own, created before
         * the attempt's reader is opened (as {@link #reader} and {@link #writer} are): the processor may
         * keep state, or depend on the attempt's context, and is never shared between threads.
         */
        public <P> Builder<I, P> attemptProcessor(
                Function<StepContext, ? extends ItemProcessor<? super I, ? extends P>> processor) {
            if (this.processor.isPresent()) {
                throw new IllegalStateException("step '" + settings.name() + "' already has a processor");
            }
            Builder<I, P> next = new Builder<>(settings, commitInterval, reader,
                    Optional.of(Checks.notNull(processor, "processor")));
            next.skipLimits.putAll(skipLimits);
            next.attemptCommitInterval = attemptCommitInterval;
            next.retry = retry;
            next.skipPolicy = skipPolicy;
            next.retryPolicy = retryPolicy;
            next.checkpointPolicy = checkpointPolicy;
            next.attemptLimits = attemptLimits;
            next.writeSkips = writeSkips;
            next.listeners = listeners;
            return next;
        }

        /**
         * Gives each step attempt, and each partition worker, a writer of its own, as
         * {@link #reader} gives readers: the writer may keep state (a file, a buffer, a
         * {@link io.durablebatch.item.RestartableItemWriter}'s position) without ever being shared
         * between threads or carried from a failed attempt into the next. A stateless writer can be
         * returned by every call: {@code context -> jdbcWriter}.
         */
        public Builder<I, O> writer(Function<StepContext, ? extends ItemWriter<? super O>> writer) {
            this.writer = Checks.notNull(writer, "writer");
            return this;
        }

        /**
         * Gives each step attempt its commit interval, asked once as the attempt starts (it may read
         * the attempt's parameters); the interval given to {@link Steps#chunk} serves when none is. A
         * commit interval is tuning, not part of the job's plan, so each attempt may have its own: a
         * restart resumes the committed checkpoint whatever its chunks' size. An attempt whose
         * interval is not 1 or more fails.
         */
        public Builder<I, O> commitInterval(ToIntFunction<StepContext> interval) {
            this.attemptCommitInterval = Optional.of(Checks.notNull(interval, "commit interval"));
            return this;
        }

        /** Skips up to {@code limit} exceptions of {@code type} (or a subtype) per step attempt. */
        public Builder<I, O> skipLimit(Class<? extends Throwable> type, int limit) {
            Checks.notNull(type, "skip type");
            Checks.positive(limit, "skip limit of " + type.getName());
            skipLimits.put(type, limit);
            return this;
        }

        public Builder<I, O> retry(int limit, Duration initialDelay, Duration maxDelay) {
            this.retry = new Retry(limit, initialDelay, maxDelay);
            return this;
        }

        /**
         * Skips the exceptions {@code skippable} matches (read, process or write), besides those
         * {@link #skipLimit(Class, int)} names; one it excludes is never skipped.
         */
        public Builder<I, O> skippable(ExceptionFilter skippable) {
            skipPolicy = new SkipPolicy(Checks.notNull(skippable, "skippable"), skipPolicy.limit());
            return this;
        }

        /** How a skippable write failure is skipped; {@link WriteSkips#ITEM_BY_ITEM} unless set. */
        public Builder<I, O> writeSkips(WriteSkips writeSkips) {
            this.writeSkips = Checks.notNull(writeSkips, "writeSkips");
            return this;
        }

        /** At most {@code limit} skips in all (every kind, every class) per step attempt; 0 skips none. */
        public Builder<I, O> skipLimit(int limit) {
            Checks.notNegative(limit, "skip limit of step '" + settings.name() + "'");
            skipPolicy = new SkipPolicy(skipPolicy.skippable(), OptionalInt.of(limit));
            attemptLimits = new AttemptLimits(Optional.empty(), attemptLimits.retry(), attemptLimits.time());
            return this;
        }

        /**
         * Gives each step attempt its limit of skips in all, asked once as the attempt opens (it may
         * read the attempt's parameters), as {@link #commitInterval(ToIntFunction)} gives its commit
         * interval: a limit is not part of the job's plan. An attempt whose limit is negative, or whose
         * function throws, fails.
         */
        public Builder<I, O> skipLimit(ToIntFunction<StepContext> limit) {
            Checks.notNull(limit, "skip limit of step '" + settings.name() + "'");
            attemptLimits = new AttemptLimits(Optional.of(limit), attemptLimits.retry(), attemptLimits.time());
            return this;
        }

        /**
         * Retries the exceptions {@code retryable} matches that the reader, processor or writer throw,
         * with rollback unless {@link #noRollback} matches them too. Without {@link #retryLimit} there
         * is no limit, as in Jakarta Batch.
         */
        public Builder<I, O> retryable(ExceptionFilter retryable) {
            retryPolicy = new RetryPolicy(Checks.notNull(retryable, "retryable"), retryPolicy.noRollback(),
                    retryPolicy.limit());
            return this;
        }

        /** Retries the retryable exceptions {@code noRollback} matches in place, without rolling the chunk back. */
        public Builder<I, O> noRollback(ExceptionFilter noRollback) {
            retryPolicy = new RetryPolicy(retryPolicy.retryable(), Checks.notNull(noRollback, "noRollback"),
                    retryPolicy.limit());
            return this;
        }

        /** At most {@code limit} retries of retryable exceptions in all per step attempt; 0 retries none. */
        public Builder<I, O> retryLimit(int limit) {
            Checks.notNegative(limit, "retry limit of step '" + settings.name() + "'");
            retryPolicy = new RetryPolicy(retryPolicy.retryable(), retryPolicy.noRollback(), OptionalInt.of(limit));
            attemptLimits = new AttemptLimits(attemptLimits.skip(), Optional.empty(), attemptLimits.time());
            return this;
        }

        /**
         * Gives each step attempt its limit of retries in all, asked once as the attempt opens, as
         * {@link #skipLimit(ToIntFunction)} does for skips. An attempt whose limit is negative, or whose
         * function throws, fails.
         */
        public Builder<I, O> retryLimit(ToIntFunction<StepContext> limit) {
            Checks.notNull(limit, "retry limit of step '" + settings.name() + "'");
            attemptLimits = new AttemptLimits(attemptLimits.skip(), Optional.of(limit), attemptLimits.time());
            return this;
        }

        /** Ends a chunk once {@code limit} has passed since its first read, if its commit interval did not end it first. */
        public Builder<I, O> timeLimit(Duration limit) {
            Checks.notNull(limit, "time limit of step '" + settings.name() + "'");
            checkpointPolicy = new CheckpointPolicy(Optional.of(limit), checkpointPolicy.algorithm());
            attemptLimits = new AttemptLimits(attemptLimits.skip(), attemptLimits.retry(), Optional.empty());
            return this;
        }

        /**
         * Gives each step attempt its chunks' time limit, asked once as the attempt opens, as
         * {@link #skipLimit(ToIntFunction)} does for skips; zero means none. An attempt whose limit is
         * null or negative, or whose function throws, fails.
         */
        public Builder<I, O> timeLimit(Function<StepContext, Duration> limit) {
            Checks.notNull(limit, "time limit of step '" + settings.name() + "'");
            checkpointPolicy = new CheckpointPolicy(Optional.empty(), checkpointPolicy.algorithm());
            attemptLimits = new AttemptLimits(attemptLimits.skip(), attemptLimits.retry(), Optional.of(limit));
            return this;
        }

        /**
         * Gives each step attempt the algorithm that decides where its chunks end, in place of the
         * commit interval.
         */
        public Builder<I, O> checkpointAlgorithm(Function<StepContext, ? extends CheckpointAlgorithm> algorithm) {
            Checks.notNull(algorithm, "checkpoint algorithm of step '" + settings.name() + "'");
            checkpointPolicy = new CheckpointPolicy(checkpointPolicy.timeLimit(), Optional.of(algorithm));
            return this;
        }

        /**
         * Adds a listener of this step's attempts, chunks, skips and items (whichever of
         * {@link StepListener}, {@link ChunkListener}, {@link SkipListener}, {@link ItemReadListener},
         * {@link ItemProcessListener} and {@link ItemWriteListener} it implements), called after the
         * CDI beans and the job's listeners, in declaration order.
         */
        public Builder<I, O> listener(BatchListener listener) {
            listeners = listeners.with(listener, "step '" + settings.name() + "'", LISTENED);
            return this;
        }

        public Builder<I, O> id(String nodeId) {
            settings = settings.withNodeId(nodeId);
            return this;
        }

        public Builder<I, O> startLimit(int startLimit) {
            settings = settings.withStartLimit(startLimit);
            return this;
        }

        public Builder<I, O> allowStartIfComplete(boolean allowStartIfComplete) {
            settings = settings.withAllowStartIfComplete(allowStartIfComplete);
            return this;
        }

        public ChunkStep<I, O> build() {
            if (writer == null) {
                throw new IllegalStateException("step '" + settings.name() + "' needs a writer");
            }
            if (!retryPolicy.noRollback().isEmpty() && retryPolicy.retryable().isEmpty()) {
                throw new IllegalStateException("step '" + settings.name() + "' lists no-rollback exceptions but no "
                        + "retryable ones: only a retried exception can be retried without rollback");
            }
            if (attemptLimits.time().isPresent() && checkpointPolicy.algorithm().isPresent()) {
                throw new IllegalStateException("step '" + settings.name() + "' has a checkpoint algorithm, which decides "
                        + "alone where chunks end: a time limit beside it would never apply");
            }
            return new ChunkStep<>(settings, commitInterval, attemptCommitInterval, reader, processor, writer, skipLimits,
                    retry, new Policies(skipPolicy, retryPolicy, checkpointPolicy, writeSkips, attemptLimits), listeners);
        }
    }
}
