package io.durablebatch.item.file;

import java.util.List;

/** The field values of one item, in column order, for a {@link DelimitedFileItemWriter}. */
@FunctionalInterface
public interface FieldExtractor<T> {

    /** The values; each is written as its {@code toString()}, a {@code null} as an empty field. */
    List<?> extract(T item) throws Exception;
}
