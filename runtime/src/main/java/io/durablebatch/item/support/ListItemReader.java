package io.durablebatch.item.support;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import io.durablebatch.Checks;
import io.durablebatch.execution.Checkpoint;
import io.durablebatch.item.ItemReader;

/**
 * Reads the items of an in-memory list, restartable by index: the checkpoint is the index of the
 * next item, so a restart returns exactly the items after the last committed one.
 */
public final class ListItemReader<T> implements ItemReader<T> {

    private static final CheckpointFormat FORMAT = CheckpointFormat.LIST_READER;

    private final List<T> items;
    private int next = -1;

    private ListItemReader(List<T> items) {
        this.items = items;
    }

    /** A reader of a copy of {@code items}; none may be null, since null marks the end of input. */
    public static <T> ListItemReader<T> of(List<? extends T> items) {
        Checks.notNull(items, "items");
        for (int i = 0; i < items.size(); i++) {
            if (items.get(i) == null) {
                throw new IllegalArgumentException(
                        "items must not contain null (null marks the end of input), found at " + i);
            }
        }
        return new ListItemReader<>(List.copyOf(items));
    }

    @Override
    public void open(Optional<Checkpoint> checkpoint) {
        Checks.notNull(checkpoint, "checkpoint");
        if (checkpoint.isEmpty()) {
            next = 0;
            return;
        }
        long index = FORMAT.decodeLongs(checkpoint.get(), 1)[0];
        if (index > items.size()) {
            throw FORMAT.refused(checkpoint.get(), "index " + index + " is beyond the " + items.size() + " items");
        }
        next = (int) index;
    }

    @Override
    public T read() {
        requireOpen();
        return next < items.size() ? items.get(next++) : null;
    }

    @Override
    public Checkpoint checkpoint() {
        requireOpen();
        return FORMAT.encodeLongs(next);
    }

    @Override
    public OptionalLong size() {
        return OptionalLong.of(items.size());
    }

    @Override
    public void close() {
        next = -1;
    }

    private void requireOpen() {
        if (next < 0) {
            throw new IllegalStateException("the list reader is not open");
        }
    }
}
