package io.durablebatch.item.file;

/**
 * Maps one parsed record of a delimited file to an item. An exception it throws (a field that is
 * not a number, say) becomes a {@link FlatFileParseException} naming the file and line.
 */
@FunctionalInterface
public interface FieldSetMapper<T> {

    /** The item of the record; never {@code null}, which would end the input. */
    T map(FieldSet fields) throws Exception;
}
