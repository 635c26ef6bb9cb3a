package io.durablebatch.runtime.sql;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Optional;

import jakarta.persistence.Tuple;

/**
 * Typed, null-aware reads of one row of a statement's result, by column label, as Hibernate mapped
 * it (a {@link Tuple}) or as the driver read it: the stores turn rows into SPEC values, never a JDBC
 * result.
 */
public final class SqlRow {

    /** The values of one row by column label. */
    @FunctionalInterface
    interface Columns {
        Object get(String column);
    }

    private final Columns columns;

    SqlRow(Tuple tuple) {
        this.columns = tuple::get;
    }

    SqlRow(Columns columns) {
        this.columns = columns;
    }

    /** A {@code bigint}; zero for a null, as JDBC reads one. */
    public long bigint(String column) {
        return optionalBigint(column).orElse(0L);
    }

    public Optional<Long> optionalBigint(String column) {
        return Optional.ofNullable((Number) columns.get(column)).map(Number::longValue);
    }

    /** An {@code integer}; zero for a null, as JDBC reads one. */
    public int integer(String column) {
        Number value = (Number) columns.get(column);
        return value == null ? 0 : value.intValue();
    }

    /** A {@code boolean}; false for a null, as JDBC reads one. */
    public boolean bool(String column) {
        return Boolean.TRUE.equals(columns.get(column));
    }

    public String text(String column) {
        return (String) columns.get(column);
    }

    public Optional<String> optionalText(String column) {
        return Optional.ofNullable(text(column));
    }

    public byte[] bytes(String column) {
        return (byte[]) columns.get(column);
    }

    public Optional<byte[]> optionalBytes(String column) {
        return Optional.ofNullable(bytes(column));
    }

    public Instant time(String column) {
        return instant(required(column));
    }

    public Optional<Instant> optionalTime(String column) {
        return Optional.ofNullable(columns.get(column)).map(SqlRow::instant);
    }

    public <E extends Enum<E>> E enumValue(String column, Class<E> type) {
        return Enum.valueOf(type, (String) required(column));
    }

    private Object required(String column) {
        Object value = columns.get(column);
        if (value == null) {
            throw new IllegalStateException("column " + column + " is null");
        }
        return value;
    }

    /** A {@code timestamptz} as Hibernate reads it: an instant, or an offset date-time by JDBC type. */
    private static Instant instant(Object value) {
        if (value instanceof Instant instant) {
            return instant;
        }
        if (value instanceof OffsetDateTime time) {
            return time.toInstant();
        }
        if (value instanceof java.sql.Timestamp timestamp) {
            return timestamp.toInstant();
        }
        throw new IllegalStateException("not a point in time: " + value.getClass().getName());
    }
}
