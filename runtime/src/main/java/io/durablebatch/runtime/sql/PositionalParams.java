package io.durablebatch.runtime.sql;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** Transitional: binds positional parameters in order, with the SQL type of each null spelled out. */
public final class PositionalParams {

    private final PreparedStatement statement;
    private int index;

    PositionalParams(PreparedStatement statement) {
        this.statement = statement;
    }

    public PositionalParams bigint(long value) throws SQLException {
        statement.setLong(++index, value);
        return this;
    }

    public PositionalParams bigint(Long value) throws SQLException {
        if (value == null) {
            statement.setNull(++index, Types.BIGINT);
        } else {
            statement.setLong(++index, value);
        }
        return this;
    }

    public PositionalParams integer(int value) throws SQLException {
        statement.setInt(++index, value);
        return this;
    }

    public PositionalParams text(String value) throws SQLException {
        if (value == null) {
            statement.setNull(++index, Types.VARCHAR);
        } else {
            statement.setString(++index, value);
        }
        return this;
    }

    public PositionalParams bool(boolean value) throws SQLException {
        statement.setBoolean(++index, value);
        return this;
    }

    public PositionalParams bytes(byte[] value) throws SQLException {
        if (value == null) {
            statement.setNull(++index, Types.BINARY);
        } else {
            statement.setBytes(++index, value);
        }
        return this;
    }

    public PositionalParams time(Instant value) throws SQLException {
        if (value == null) {
            statement.setNull(++index, Types.TIMESTAMP_WITH_TIMEZONE);
        } else {
            statement.setObject(++index, OffsetDateTime.ofInstant(value, ZoneOffset.UTC));
        }
        return this;
    }

    /** Binds a PostgreSQL array, e.g. {@code bigint[]} for {@code = ANY (?)}. */
    public PositionalParams array(String elementType, Object[] values) throws SQLException {
        statement.setArray(++index, statement.getConnection().createArrayOf(elementType, values));
        return this;
    }
}
