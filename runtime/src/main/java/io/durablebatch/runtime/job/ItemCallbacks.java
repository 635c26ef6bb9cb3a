package io.durablebatch.runtime.job;

import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;

import io.durablebatch.listener.ItemProcessListener;
import io.durablebatch.listener.ItemReadListener;
import io.durablebatch.listener.ItemWriteListener;

/**
 * The item listeners of one chunk step attempt, in calling order: "before" callbacks in order,
 * "after" and error callbacks in reverse order; the first listener that throws stops the callback and
 * its exception propagates (one thrown by an error callback carries the item's failure as
 * suppressed). An attempt that no item listener applies to has none ({@link #of} gives
 * {@code null}), so the chunk loop makes no call for them.
 */
final class ItemCallbacks {

    private final ItemReadListener[] reads;
    private final ItemProcessListener[] processes;
    private final ItemWriteListener[] writes;

    private ItemCallbacks(List<ItemReadListener> reads, List<ItemProcessListener> processes,
            List<ItemWriteListener> writes) {
        this.reads = reads.toArray(ItemReadListener[]::new);
        this.processes = processes.toArray(ItemProcessListener[]::new);
        this.writes = writes.toArray(ItemWriteListener[]::new);
    }

    /** The callbacks of these listeners, or {@code null} when there is none. */
    static ItemCallbacks of(List<ItemReadListener> reads, List<ItemProcessListener> processes,
            List<ItemWriteListener> writes) {
        return reads.isEmpty() && processes.isEmpty() && writes.isEmpty() ? null
                : new ItemCallbacks(reads, processes, writes);
    }

    void beforeRead() {
        for (ItemReadListener listener : reads) {
            listener.beforeRead();
        }
    }

    void afterRead(Object item) {
        for (int i = reads.length - 1; i >= 0; i--) {
            reads[i].afterRead(item);
        }
    }

    void onReadError(Exception failure) {
        inReverse(reads, failure, listener -> listener.onReadError(failure));
    }

    void beforeProcess(Object item) {
        for (ItemProcessListener listener : processes) {
            listener.beforeProcess(item);
        }
    }

    void afterProcess(Object item, Object result) {
        for (int i = processes.length - 1; i >= 0; i--) {
            processes[i].afterProcess(item, result);
        }
    }

    void onProcessError(Object item, Exception failure) {
        inReverse(processes, failure, listener -> listener.onProcessError(item, failure));
    }

    void beforeWrite(List<Object> items) {
        List<Object> seen = Collections.unmodifiableList(items);
        for (ItemWriteListener listener : writes) {
            listener.beforeWrite(seen);
        }
    }

    void afterWrite(List<Object> items) {
        List<Object> seen = Collections.unmodifiableList(items);
        for (int i = writes.length - 1; i >= 0; i--) {
            writes[i].afterWrite(seen);
        }
    }

    void onWriteError(List<Object> items, Exception failure) {
        List<Object> seen = Collections.unmodifiableList(items);
        inReverse(writes, failure, listener -> listener.onWriteError(seen, failure));
    }

    /**
     * Tells {@code listeners} of an item's {@code failure}, in reverse order; the exception of one that
     * throws replaces the failure, and carries it as suppressed.
     */
    private static <L> void inReverse(L[] listeners, Exception failure, Consumer<L> call) {
        try {
            for (int i = listeners.length - 1; i >= 0; i--) {
                call.accept(listeners[i]);
            }
        } catch (RuntimeException | Error e) {
            if (e != failure) {
                e.addSuppressed(failure);
            }
            throw e;
        }
    }
}
