package io.durablebatch.jakarta.runtime.execution;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import jakarta.batch.api.chunk.listener.ChunkListener;
import jakarta.batch.api.chunk.listener.ItemProcessListener;
import jakarta.batch.api.chunk.listener.ItemReadListener;
import jakarta.batch.api.chunk.listener.ItemWriteListener;
import jakarta.batch.api.chunk.listener.RetryProcessListener;
import jakarta.batch.api.chunk.listener.RetryReadListener;
import jakarta.batch.api.chunk.listener.RetryWriteListener;
import jakarta.batch.api.chunk.listener.SkipProcessListener;
import jakarta.batch.api.chunk.listener.SkipReadListener;
import jakarta.batch.api.chunk.listener.SkipWriteListener;
import jakarta.batch.api.listener.StepListener;

import org.jboss.logging.Logger;

import io.durablebatch.jakarta.runtime.artifact.BatchArtifacts;
import io.durablebatch.jakarta.runtime.artifact.CurrentArtifact;
import io.durablebatch.jakarta.runtime.jsl.JslJob;
import io.durablebatch.jakarta.runtime.jsl.JslStep;
import io.durablebatch.jakarta.runtime.jsl.PropertyScope;

/**
 * One attempt of a JSL step as the Jakarta artifacts see it: its {@code StepContext}, its step-level
 * {@code <listeners>} (resolved as it starts, in document order, each called in document order), and
 * for a chunk step its reader, processor and writer ({@link ChunkRun}). Created by the kernel's
 * {@code beforeStep}, dropped by its {@code afterStep}.
 */
final class StepRun {

    private static final Logger LOG = Logger.getLogger(StepRun.class);

    /** The step-level listener kinds; an artifact in {@code <listeners>} must be one of them. */
    private static final List<Class<?>> KINDS = List.of(StepListener.class, ChunkListener.class, ItemReadListener.class,
            ItemProcessListener.class, ItemWriteListener.class, SkipReadListener.class, SkipProcessListener.class,
            SkipWriteListener.class, RetryReadListener.class, RetryProcessListener.class, RetryWriteListener.class);

    /** A listener artifact and what is current while it is called. */
    record Listener(Object artifact, CurrentArtifact current, BatchArtifacts.Resolved<Object> handle) {
    }

    /** A call of a listener. */
    @FunctionalInterface
    interface Call<L> {
        void call(L listener) throws Exception;
    }

    private final JslJob job;
    private final JslStep step;
    private final PropertyScope scope;
    private final JakartaStepContext context;
    private final io.durablebatch.context.StepContext kernel;
    private final List<Listener> listeners = new ArrayList<>();
    /** A partition's collector, called after each chunk it commits. */
    private Optional<AttemptContexts.Collector> collector = Optional.empty();
    private volatile ChunkRun chunk;
    /** Whether a chunk began (its beforeChunk was called) and has not ended yet. */
    private boolean inChunk;
    /** The failure of an afterChunk, which fails the step as its next chunk begins. */
    private RuntimeException failNextChunk;

    StepRun(JslJob job, JslStep step, PropertyScope scope, JakartaStepContext context,
            io.durablebatch.context.StepContext kernel) {
        this.job = job;
        this.step = step;
        this.scope = scope;
        this.context = context;
        this.kernel = kernel;
    }

    JslJob job() {
        return job;
    }

    JslStep step() {
        return step;
    }

    /** The step's properties as the execution resolves them; its artifacts' scopes start here. */
    PropertyScope scope() {
        return scope;
    }

    JakartaStepContext context() {
        return context;
    }

    ChunkRun chunk() {
        if (chunk == null) {
            throw new IllegalStateException("the reader of step " + step.id() + " was not opened");
        }
        return chunk;
    }

    void chunk(ChunkRun chunk) {
        this.chunk = chunk;
    }

    /** The chunk's first read: the Jakarta chunk begins, unless one began already. */
    void beginChunk() {
        if (inChunk) {
            return;
        }
        if (failNextChunk != null) {
            throw failNextChunk;
        }
        inChunk = true;
        call(ChunkListener.class, "beforeChunk", ChunkListener::beforeChunk);
    }

    void endChunk() {
        inChunk = false;
    }

    void collector(Optional<AttemptContexts.Collector> collector) {
        this.collector = collector;
    }

    /**
     * Once a partition's chunk committed: its collector's data goes to the step's analyzer. The
     * kernel commits a last chunk when the reader has no more items (empty if the one before was
     * full), so a partition that completes is collected from once more at its end, as the
     * specification wants; a chunk that rolls back collects nothing.
     */
    void collect() throws Exception {
        if (collector.isPresent()) {
            try {
                collector.get().collect(kernel);
            } catch (Exception e) {
                context.failedWith(e);
                throw e;
            }
        }
    }

    void failNextChunk(RuntimeException failure) {
        failNextChunk = failure;
    }

    /** Whether this attempt runs a partition of a partitioned step. */
    boolean inPartition() {
        return kernel.partition().isPresent();
    }

    String where() {
        return "step " + step.id() + " of job " + job.id();
    }

    /** Resolves the step's listeners, in document order. */
    void resolveListeners(BatchArtifacts artifacts) throws Exception {
        for (var written : step.listeners()) {
            CurrentArtifact current = new CurrentArtifact(written.location().toString(), context.jobContext(), context,
                    scope.enter(written.properties()).properties());
            BatchArtifacts.Resolved<Object> resolved = artifacts.resolve(scope.resolve(written.ref()), Object.class,
                    current);
            listeners.add(new Listener(resolved.get(), current, resolved));
            if (KINDS.stream().noneMatch(kind -> kind.isInstance(resolved.get()))) {
                throw new IllegalStateException("listener \"" + written.ref() + "\" of " + current.where() + " is a "
                        + resolved.get().getClass().getName() + ", which implements no step-level listener interface "
                        + "of jakarta.batch.api.listener or jakarta.batch.api.chunk.listener");
            }
        }
    }

    /**
     * Calls {@code call} on each listener of {@code kind}, in document order; the first that throws
     * stops the calls, is kept as the step's exception, and fails what it was called in.
     */
    <L> void call(Class<L> kind, String callback, Call<L> call) {
        for (Listener listener : listeners) {
            if (kind.isInstance(listener.artifact())) {
                try {
                    listener.current().call(() -> {
                        call.call(kind.cast(listener.artifact()));
                        return null;
                    });
                } catch (Exception e) {
                    context.failedWith(e);
                    throw e instanceof RuntimeException runtime ? runtime
                            : new ListenerFailedException(callback, listener.current().where(), e);
                }
            }
        }
    }

    /** Whether a listener of {@code kind} is declared. */
    boolean listensAs(Class<?> kind) {
        return listeners.stream().anyMatch(listener -> kind.isInstance(listener.artifact()));
    }

    /** Releases the listener artifacts (a {@code @Dependent} bean is destroyed). */
    void close() {
        ChunkRun ended = chunk;
        if (ended != null) {
            try {
                ended.release();
            } catch (RuntimeException e) {
                LOG.warnf(e, "Releasing the reader, processor or writer of %s failed", where());
            }
        }
        for (Listener listener : listeners) {
            try {
                listener.handle().close();
            } catch (RuntimeException e) {
                LOG.warnf(e, "Releasing a listener of %s failed", where());
            }
        }
        listeners.clear();
        collector.ifPresent(AttemptContexts.Collector::close);
        collector = Optional.empty();
    }
}
