package io.durablebatch.runtime.sql;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Optional;

/** Typed, null-aware reads of the current row of a result set. */
public final class SqlRow {

    private final ResultSet resultSet;

    SqlRow(ResultSet resultSet) {
        this.resultSet = resultSet;
    }

    public long bigint(String column) throws SQLException {
        return resultSet.getLong(column);
    }

    public Optional<Long> optionalBigint(String column) throws SQLException {
        long value = resultSet.getLong(column);
        return resultSet.wasNull() ? Optional.empty() : Optional.of(value);
    }

    public int integer(String column) throws SQLException {
        return resultSet.getInt(column);
    }

    public boolean bool(String column) throws SQLException {
        return resultSet.getBoolean(column);
    }

    public String text(String column) throws SQLException {
        return resultSet.getString(column);
    }

    public Optional<String> optionalText(String column) throws SQLException {
        return Optional.ofNullable(resultSet.getString(column));
    }

    public byte[] bytes(String column) throws SQLException {
        return resultSet.getBytes(column);
    }

    public Optional<byte[]> optionalBytes(String column) throws SQLException {
        return Optional.ofNullable(resultSet.getBytes(column));
    }

    public Instant time(String column) throws SQLException {
        return resultSet.getObject(column, OffsetDateTime.class).toInstant();
    }

    public Optional<Instant> optionalTime(String column) throws SQLException {
        OffsetDateTime value = resultSet.getObject(column, OffsetDateTime.class);
        return value == null ? Optional.empty() : Optional.of(value.toInstant());
    }

    public <E extends Enum<E>> E enumValue(String column, Class<E> type) throws SQLException {
        return Enum.valueOf(type, resultSet.getString(column));
    }
}
