package io.durablebatch.jakarta.runtime.execution;

import java.util.List;

import jakarta.batch.api.chunk.listener.RetryProcessListener;
import jakarta.batch.api.chunk.listener.RetryReadListener;
import jakarta.batch.api.chunk.listener.RetryWriteListener;
import jakarta.batch.api.chunk.listener.SkipProcessListener;
import jakarta.batch.api.chunk.listener.SkipReadListener;
import jakarta.batch.api.chunk.listener.SkipWriteListener;

import io.durablebatch.context.StepContext;
import io.durablebatch.jakarta.runtime.jsl.JslJob;
import io.durablebatch.jakarta.runtime.jsl.JslPartition;
import io.durablebatch.jakarta.runtime.jsl.JslStep;
import io.durablebatch.listener.ChunkEvent;
import io.durablebatch.listener.ChunkListener;
import io.durablebatch.listener.ItemProcessListener;
import io.durablebatch.listener.ItemReadListener;
import io.durablebatch.listener.ItemWriteListener;
import io.durablebatch.listener.RetryListener;
import io.durablebatch.listener.SkipListener;

/**
 * A JSL chunk step's attempts and chunks as the kernel's listener: what {@link JslStepListener}
 * does, and the Jakarta chunk, item and skip listeners of the step called from the kernel's.
 * <p>
 * Jakarta's chunk begins before its first read, inside its transaction; the kernel reads a chunk's
 * items before the transaction. So Jakarta's {@code beforeChunk} is called at the chunk's first
 * {@code beforeRead}, outside the transaction, keeping the order the specification gives
 * (beforeChunk, the reads, the processing, the write, afterChunk). {@code afterChunk} runs once the
 * chunk committed, {@code onError} once it rolled back; a partition's {@code <collector>} is called
 * after {@code afterChunk}. An {@code afterChunk} or collector that throws fails the step at its
 * next chunk (the one it followed stays committed).
 * <p>
 * A step that declares no listener and no {@code <collector>} gets the listener without the item
 * callbacks ({@link #of}): they would call nothing, and the kernel makes no per-item call for a
 * listener that is no item listener (four calls an item and two copies of each chunk's items).
 */
public class JslChunkListener extends JslStepListener implements ChunkListener, SkipListener, RetryListener {

    private JslChunkListener(JslJob job, JslStep step) {
        super(job, step);
    }

    /** The listener of {@code step}, with the item callbacks only if its listeners or collector need them. */
    public static JslChunkListener of(JslJob job, JslStep step) {
        boolean called = !step.listeners().isEmpty()
                || step.partition().flatMap(JslPartition::collector).isPresent();
        return called ? new Items(job, step) : new JslChunkListener(job, step);
    }

    @Override
    public void afterChunk(ChunkEvent chunk) {
        StepRun run = StepRuns.current();
        if (run.context() instanceof ChunkStepContext context) {
            context.committed(chunk.committed());
        }
        run.endChunk();
        try {
            run.call(jakarta.batch.api.chunk.listener.ChunkListener.class, "afterChunk", l -> l.afterChunk());
            run.collect();
        } catch (RuntimeException e) {
            run.failNextChunk(e);
            throw e;
        } catch (Exception e) {
            RuntimeException failure = new IllegalStateException("the <collector> of " + run.where() + " failed: " + e, e);
            run.failNextChunk(failure);
            throw failure;
        }
    }

    @Override
    public void onChunkError(ChunkEvent chunk, Throwable failure) {
        StepRun run = StepRuns.current();
        run.endChunk();
        Throwable cause = failure instanceof ListenerFailedException && failure.getCause() != null ? failure.getCause()
                : failure;
        if (cause instanceof Exception exception) {
            run.context().failedWith(exception);
            run.call(jakarta.batch.api.chunk.listener.ChunkListener.class, "onError", l -> l.onError(exception));
        }
    }

    @Override
    public void onSkipInRead(StepContext step, Exception failure) {
        StepRuns.current().call(SkipReadListener.class, "onSkipReadItem", l -> l.onSkipReadItem(failure));
    }

    @Override
    public void onSkipInProcess(StepContext step, Object item, Exception failure) {
        StepRuns.current().call(SkipProcessListener.class, "onSkipProcessItem", l -> l.onSkipProcessItem(item, failure));
    }

    @Override
    public void onSkipInWrite(StepContext step, Object item, Exception failure) {
        StepRuns.current().call(SkipWriteListener.class, "onSkipWriteItem",
                l -> l.onSkipWriteItem(List.of(item), failure));
    }

    /** A whole {@code writeItems} skipped, as Jakarta Batch skips one: its listeners get all its items. */
    @Override
    public void onSkipInWrite(StepContext step, List<Object> items, Exception failure) {
        List<Object> written = List.copyOf(items);
        StepRuns.current().call(SkipWriteListener.class, "onSkipWriteItem", l -> l.onSkipWriteItem(written, failure));
    }

    @Override
    public void onRetryRead(StepContext step, Exception failure) {
        StepRuns.current().call(RetryReadListener.class, "onRetryReadException", l -> l.onRetryReadException(failure));
    }

    @Override
    public void onRetryProcess(StepContext step, Object item, Exception failure) {
        StepRuns.current().call(RetryProcessListener.class, "onRetryProcessException",
                l -> l.onRetryProcessException(item, failure));
    }

    @Override
    public void onRetryWrite(StepContext step, List<Object> items, Exception failure) {
        List<Object> written = List.copyOf(items);
        StepRuns.current().call(RetryWriteListener.class, "onRetryWriteException",
                l -> l.onRetryWriteException(written, failure));
    }

    /**
     * With the item callbacks: the chunk begins (its {@code beforeChunk}, or the failure of the last
     * {@code afterChunk} or collector) at its first {@code beforeRead}.
     */
    private static final class Items extends JslChunkListener
            implements ItemReadListener, ItemProcessListener, ItemWriteListener {

        Items(JslJob job, JslStep step) {
            super(job, step);
        }

        @Override
        public void beforeRead() {
            StepRun run = StepRuns.current();
            run.beginChunk();
            run.call(jakarta.batch.api.chunk.listener.ItemReadListener.class, "beforeRead", l -> l.beforeRead());
        }

        @Override
        public void afterRead(Object item) {
            StepRuns.current().call(jakarta.batch.api.chunk.listener.ItemReadListener.class, "afterRead",
                    l -> l.afterRead(item));
        }

        @Override
        public void onReadError(Exception failure) {
            StepRuns.current().call(jakarta.batch.api.chunk.listener.ItemReadListener.class, "onReadError",
                    l -> l.onReadError(failure));
        }

        @Override
        public void beforeProcess(Object item) {
            StepRuns.current().call(jakarta.batch.api.chunk.listener.ItemProcessListener.class, "beforeProcess",
                    l -> l.beforeProcess(item));
        }

        @Override
        public void afterProcess(Object item, Object result) {
            StepRuns.current().call(jakarta.batch.api.chunk.listener.ItemProcessListener.class, "afterProcess",
                    l -> l.afterProcess(item, result));
        }

        @Override
        public void onProcessError(Object item, Exception failure) {
            StepRuns.current().call(jakarta.batch.api.chunk.listener.ItemProcessListener.class, "onProcessError",
                    l -> l.onProcessError(item, failure));
        }

        @Override
        public void beforeWrite(List<?> items) {
            List<Object> written = List.copyOf(items);
            StepRuns.current().call(jakarta.batch.api.chunk.listener.ItemWriteListener.class, "beforeWrite",
                    l -> l.beforeWrite(written));
        }

        @Override
        public void afterWrite(List<?> items) {
            List<Object> written = List.copyOf(items);
            StepRuns.current().call(jakarta.batch.api.chunk.listener.ItemWriteListener.class, "afterWrite",
                    l -> l.afterWrite(written));
        }

        @Override
        public void onWriteError(List<?> items, Exception failure) {
            List<Object> written = List.copyOf(items);
            StepRuns.current().call(jakarta.batch.api.chunk.listener.ItemWriteListener.class, "onWriteError",
                    l -> l.onWriteError(written, failure));
        }
    }
}
