package io.durablebatch.item.support;

import java.util.ArrayList;
import java.util.List;

import io.durablebatch.item.ItemWriter;

/**
 * Collects the chunks it is asked to write, in order, so a test can assert what a step wrote and
 * how it was chunked. Safe for concurrent writers (the workers of a partitioned step).
 */
public final class ListItemWriter<T> implements ItemWriter<T> {

    private final List<List<T>> chunks = new ArrayList<>();

    @Override
    public synchronized void write(List<? extends T> items) {
        chunks.add(List.copyOf(items));
    }

    /** The chunks written so far, each as it was passed to {@link #write}. */
    public synchronized List<List<T>> chunks() {
        return List.copyOf(chunks);
    }

    /** All items written so far, in the order of their chunks. */
    public synchronized List<T> items() {
        List<T> items = new ArrayList<>();
        chunks.forEach(items::addAll);
        return List.copyOf(items);
    }
}
