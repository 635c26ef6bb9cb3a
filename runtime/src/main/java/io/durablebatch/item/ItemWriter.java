package io.durablebatch.item;

import java.util.List;

/**
 * Writes the items of one chunk. The kernel calls it inside the chunk's JTA transaction, together
 * with the step's progress, so a writer that uses the same datasource commits exactly once per chunk.
 */
@FunctionalInterface
public interface ItemWriter<T> {

    void write(List<? extends T> items) throws Exception;
}
