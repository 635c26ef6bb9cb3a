package io.durablebatch.job;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToIntFunction;

import io.durablebatch.Checks;
import io.durablebatch.item.ItemProcessor;
import io.durablebatch.item.ItemReader;
import io.durablebatch.item.ItemWriter;
import io.durablebatch.listener.BatchListener;
import io.durablebatch.listener.ChunkListener;
import io.durablebatch.listener.ItemProcessListener;
import io.durablebatch.listener.ItemReadListener;
import io.durablebatch.listener.ItemWriteListener;
import io.durablebatch.listener.Listeners;
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

    private final StepSettings settings;
    private final int commitInterval;
    private final Optional<ToIntFunction<StepContext>> attemptCommitInterval;
    private final Function<StepContext, ? extends ItemReader<? extends I>> reader;
    private final Optional<Function<StepContext, ? extends ItemProcessor<? super I, ? extends O>>> processor;
    private final Function<StepContext, ? extends ItemWriter<? super O>> writer;
    private final Map<Class<? extends Throwable>, Integer> skipLimits;
    private final Retry retry;
    private final Listeners listeners;

    /** The listener kinds a chunk step calls. */
    static final List<Class<? extends BatchListener>> LISTENED = List.of(StepListener.class, ChunkListener.class,
            SkipListener.class, ItemReadListener.class, ItemProcessListener.class, ItemWriteListener.class);

    private ChunkStep(StepSettings settings, int commitInterval, Optional<ToIntFunction<StepContext>> attemptCommitInterval,
            Function<StepContext, ? extends ItemReader<? extends I>> reader,
            Optional<Function<StepContext, ? extends ItemProcessor<? super I, ? extends O>>> processor,
            Function<StepContext, ? extends ItemWriter<? super O>> writer,
            Map<Class<? extends Throwable>, Integer> skipLimits, Retry retry, Listeners listeners) {
        this.listeners = listeners;
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

    /** The listeners declared on this step, in declaration order; not part of the plan. */
    public Listeners listeners() {
        return listeners;
    }

    public ChunkStep<I, O> withId(String nodeId) {
        return new ChunkStep<>(settings.withNodeId(nodeId), commitInterval, attemptCommitInterval, reader, processor, writer,
                skipLimits, retry,
                listeners);
    }

    @Override
    public ChunkStep<I, O> withStartLimit(int startLimit) {
        return new ChunkStep<>(settings.withStartLimit(startLimit), commitInterval, attemptCommitInterval, reader, processor,
                writer, skipLimits,
                retry, listeners);
    }

    @Override
    public ChunkStep<I, O> withAllowStartIfComplete(boolean allowStartIfComplete) {
        return new ChunkStep<>(settings.withAllowStartIfComplete(allowStartIfComplete), commitInterval, attemptCommitInterval,
                reader, processor,
                writer, skipLimits, retry, listeners);
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
            return new ChunkStep<>(settings, commitInterval, attemptCommitInterval, reader, processor, writer, skipLimits,
                    retry, listeners);
        }
    }
}
