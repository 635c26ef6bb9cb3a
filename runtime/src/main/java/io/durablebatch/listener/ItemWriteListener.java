package io.durablebatch.listener;

import java.util.List;

/**
 * Called around each write of a chunk step's writer, inside the chunk's transaction, after its items
 * were processed: {@code beforeWrite} with the items the writer is given (the processor's outputs,
 * without those it filtered out or that were skipped; a chunk with none writes nothing and calls
 * nothing), {@code afterWrite} once the writer returned, before the step's progress is recorded in
 * the same transaction, and {@code onWriteError} with the exception it threw, before the
 * transaction rolls back. The lists are read-only. What a listener writes to the database commits
 * with the chunk; what {@code onWriteError} writes always rolls back with it.
 * <p>
 * A writer's skippable failure calls {@code onWriteError} with the chunk's items; the probes that
 * then write each item alone (in transactions that always roll back) call no listener, and the
 * transaction that commits the chunk without the refused items calls {@code beforeWrite} and
 * {@code afterWrite} with the items it writes. A chunk tried again after a transient failure calls
 * them again in its new try.
 * <p>
 * A listener that throws rolls the chunk back and fails the step (as a {@code beforeChunk} that
 * throws): its exception is never skipped, and one thrown by {@code onWriteError} carries the
 * writer's failure as suppressed. The first listener that throws stops the calls of that callback.
 */
public interface ItemWriteListener extends BatchListener {

    /** Before the writer is given {@code items}, in the chunk's transaction. */
    default void beforeWrite(List<?> items) {
    }

    /** After the writer wrote {@code items}, in the chunk's transaction, before it commits. */
    default void afterWrite(List<?> items) {
    }

    /** After the writer threw {@code failure} writing {@code items}, before the transaction rolls back. */
    default void onWriteError(List<?> items, Exception failure) {
    }
}
