package io.durablebatch.runtime.sql;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * The values of a statement bound by name ({@link SqlParams}), kept by JDBC position and then set
 * on a {@link PreparedStatement}, each as Hibernate binds its Java type for PostgreSQL (a null with
 * its SQL type, an instant as a {@code timestamptz}). Scalars, and ids as a {@code bigint[]} (a
 * page's rows named in one statement); other arrays go through Hibernate.
 */
final class JdbcBindings implements SqlParams.Sink {

    private final Object[] values;
    private final int[] types;

    JdbcBindings(int positions) {
        this.values = new Object[positions];
        this.types = new int[positions];
    }

    @Override
    public void set(int position, Object value, Class<?> type) {
        values[position - 1] = value instanceof Instant instant ? OffsetDateTime.ofInstant(instant, ZoneOffset.UTC) : value;
        types[position - 1] = sqlType(type);
    }

    private static int sqlType(Class<?> type) {
        if (type == Long.class) {
            return Types.BIGINT;
        } else if (type == Integer.class) {
            return Types.INTEGER;
        } else if (type == String.class) {
            return Types.VARCHAR;
        } else if (type == Boolean.class) {
            return Types.BOOLEAN;
        } else if (type == byte[].class) {
            return Types.BINARY;
        } else if (type == Instant.class) {
            return Types.TIMESTAMP_WITH_TIMEZONE;
        } else if (type == Long[].class) {
            return Types.ARRAY;
        }
        throw new IllegalArgumentException(type.getSimpleName() + " parameters are bound through Hibernate only");
    }

    void applyTo(PreparedStatement statement) throws SQLException {
        for (int i = 0; i < values.length; i++) {
            Object value = values[i];
            if (value == null) {
                statement.setNull(i + 1, types[i]);
            } else if (value instanceof Long number) {
                statement.setLong(i + 1, number);
            } else if (value instanceof byte[] bytes) {
                statement.setBytes(i + 1, bytes);
            } else if (value instanceof Long[] numbers) {
                statement.setArray(i + 1, statement.getConnection().createArrayOf("bigint", numbers));
            } else {
                statement.setObject(i + 1, value, types[i]);
            }
        }
    }
}
