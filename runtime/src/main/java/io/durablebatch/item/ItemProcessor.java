package io.durablebatch.item;

/** Transforms one item; returning {@code null} filters the item out of the chunk. */
@FunctionalInterface
public interface ItemProcessor<I, O> {

    O process(I item) throws Exception;
}
