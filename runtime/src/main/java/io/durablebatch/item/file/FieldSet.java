package io.durablebatch.item.file;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.StringJoiner;

/**
 * One parsed record of a delimited file: its field values, by name or position. The typed getters
 * refuse a value that does not parse with a message naming the field, which the reader reports with
 * the file and line.
 */
public final class FieldSet {

    private final FieldNames names;
    private final String[] values;

    FieldSet(FieldNames names, String[] values) {
        this.names = names;
        this.values = values;
    }

    public int size() {
        return values.length;
    }

    public List<String> names() {
        return names.list();
    }

    public List<String> values() {
        return List.of(values);
    }

    /** The value at {@code index}, counting from 0. */
    public String get(int index) {
        if (index < 0 || index >= values.length) {
            throw new IllegalArgumentException("no field at index " + index + ", there are " + values.length);
        }
        return values[index];
    }

    public String get(String name) {
        return values[names.position(name)];
    }

    public long getLong(String name) {
        String value = get(name);
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw notA("whole number", name, value);
        }
    }

    public int getInt(String name) {
        String value = get(name);
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw notA("32-bit whole number", name, value);
        }
    }

    public BigDecimal getDecimal(String name) {
        String value = get(name);
        try {
            return new BigDecimal(value);
        } catch (NumberFormatException e) {
            throw notA("decimal number", name, value);
        }
    }

    private static IllegalArgumentException notA(String kind, String name, String value) {
        return new IllegalArgumentException("field '" + name + "' is not a " + kind + ": '" + value + "'");
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof FieldSet that && names().equals(that.names()) && Arrays.equals(values, that.values);
    }

    @Override
    public int hashCode() {
        return 31 * names().hashCode() + Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        StringJoiner joiner = new StringJoiner(", ", "{", "}");
        for (int i = 0; i < values.length; i++) {
            joiner.add(names.list().get(i) + "=" + values[i]);
        }
        return joiner.toString();
    }
}
