package io.durablebatch.runtime.job;

import java.util.Collections;
import java.util.List;

import org.jboss.logging.Logger;

import io.durablebatch.context.StepContext;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.listener.ChunkEvent;
import io.durablebatch.listener.ChunkListener;
import io.durablebatch.listener.RetryListener;
import io.durablebatch.listener.SkipListener;
import io.durablebatch.listener.StepEvent;
import io.durablebatch.listener.StepListener;

/**
 * The listeners of one step attempt, in calling order. "Before" and skip callbacks run in order and
 * the first that throws fails what it was called in; "after" and error callbacks run in reverse order,
 * each called, and one that throws is logged. With no chunk listener, a chunk costs nothing here.
 */
final class StepCallbacks {

    private static final Logger LOG = Logger.getLogger(StepCallbacks.class);

    /** No listener: what an attempt is told of until {@link StepRunners} gives it its own. */
    static final StepCallbacks NONE = new StepCallbacks(List.of(), List.of(), List.of(), List.of(), null);

    private final StepListener[] steps;
    private final ChunkListener[] chunks;
    private final SkipListener[] skips;
    private final RetryListener[] retries;
    private final ItemCallbacks items;

    StepCallbacks(List<StepListener> steps, List<ChunkListener> chunks, List<SkipListener> skips,
            List<RetryListener> retries, ItemCallbacks items) {
        this.steps = steps.toArray(StepListener[]::new);
        this.chunks = chunks.toArray(ChunkListener[]::new);
        this.skips = skips.toArray(SkipListener[]::new);
        this.retries = retries.toArray(RetryListener[]::new);
        this.items = items;
    }

    /** The item listeners of a chunk step's attempt, or {@code null} when none applies: the chunk loop then calls none. */
    ItemCallbacks items() {
        return items;
    }

    /** Whether a listener of the attempt is called after its completion commits (an afterStep, an afterChunk). */
    boolean listensAfterCompletion() {
        return steps.length > 0 || chunks.length > 0;
    }

    boolean hasChunkListeners() {
        return chunks.length > 0;
    }

    void beforeStep(StepEvent run) {
        for (StepListener listener : steps) {
            listener.beforeStep(run);
        }
    }

    void afterStep(StepEvent run) {
        for (int i = steps.length - 1; i >= 0; i--) {
            try {
                steps[i].afterStep(run);
            } catch (RuntimeException | Error e) {
                LOG.errorf(e, "Listener %s failed in afterStep of step '%s' (step execution %s); its recorded end %s "
                        + "stands", steps[i], run.context().stepName(), run.execution().id(), run.execution().status());
            }
        }
    }

    /** The chunk about to run, or {@code null} when no chunk listener would see it. */
    ChunkEvent chunk(StepContext context, StepCounters committed, int items) {
        return chunks.length == 0 ? null : new ChunkEvent(context, committed.commitCount() + 1, items, committed);
    }

    /** Inside the chunk's transaction. */
    void beforeChunk(ChunkEvent run) {
        if (run != null) {
            for (ChunkListener listener : chunks) {
                listener.beforeChunk(run);
            }
        }
    }

    /** After the chunk committed: {@code committed} counts it. */
    void afterChunk(ChunkEvent run, StepCounters committed) {
        if (run == null) {
            return;
        }
        ChunkEvent after = new ChunkEvent(run.step(), run.number(), run.items(), committed);
        for (int i = chunks.length - 1; i >= 0; i--) {
            try {
                chunks[i].afterChunk(after);
            } catch (RuntimeException | Error e) {
                LOG.errorf(e, "Listener %s failed in afterChunk of chunk %d of step '%s' (step execution %s); the "
                        + "chunk stays committed", chunks[i], run.number(), run.step().stepName(),
                        run.step().stepExecutionId());
            }
        }
    }

    /** After a try of the chunk's transaction rolled back because of {@code failure}. */
    void onChunkError(ChunkEvent run, Throwable failure) {
        if (run == null) {
            return;
        }
        for (int i = chunks.length - 1; i >= 0; i--) {
            try {
                chunks[i].onChunkError(run, failure);
            } catch (RuntimeException | Error e) {
                LOG.errorf(e, "Listener %s failed in onChunkError of chunk %d of step '%s' (step execution %s)",
                        chunks[i], run.number(), run.step().stepName(), run.step().stepExecutionId());
                if (e != failure) {
                    failure.addSuppressed(e);
                }
            }
        }
    }

    /** Inside the chunk's transaction, as every other skip callback. */
    void skippedInRead(StepContext context, Exception failure) {
        for (SkipListener listener : skips) {
            listener.onSkipInRead(context, failure);
        }
    }

    void skippedInProcess(StepContext context, Object item, Exception failure) {
        for (SkipListener listener : skips) {
            listener.onSkipInProcess(context, item, failure);
        }
    }

    /** A whole write skipped, inside the chunk's transaction. */
    void skippedWrite(StepContext context, List<Object> items, Exception failure) {
        List<Object> seen = Collections.unmodifiableList(items);
        for (SkipListener listener : skips) {
            listener.onSkipInWrite(context, seen, failure);
        }
    }

    void skippedInWrite(StepContext context, Object item, Exception failure) {
        for (SkipListener listener : skips) {
            listener.onSkipInWrite(context, item, failure);
        }
    }

    /** Where the retried exception was caught, as the other retry callbacks; a listener's throw carries it as suppressed. */
    void retriedRead(StepContext context, Exception failure) {
        for (RetryListener listener : retries) {
            tellRetry(failure, () -> listener.onRetryRead(context, failure));
        }
    }

    void retriedProcess(StepContext context, Object item, Exception failure) {
        for (RetryListener listener : retries) {
            tellRetry(failure, () -> listener.onRetryProcess(context, item, failure));
        }
    }

    void retriedWrite(StepContext context, List<Object> items, Exception failure) {
        List<Object> seen = Collections.unmodifiableList(items);
        for (RetryListener listener : retries) {
            tellRetry(failure, () -> listener.onRetryWrite(context, seen, failure));
        }
    }

    private static void tellRetry(Exception failure, Runnable call) {
        try {
            call.run();
        } catch (RuntimeException | Error e) {
            if (e != failure) {
                e.addSuppressed(failure);
            }
            throw e;
        }
    }
}
