package io.durablebatch.runtime.sql;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.Set;

/**
 * Binds a statement's parameters by name, each in every place it appears, with the SQL type of each
 * null spelled out. A name the statement lacks, or a parameter left unbound, is a programming error
 * and fails before the statement runs.
 */
public final class SqlParams {

    @FunctionalInterface
    private interface Setter {
        void set(int position) throws SQLException;
    }

    private final SqlStatement sql;
    private final PreparedStatement statement;
    private final Set<String> bound = new HashSet<>();

    SqlParams(SqlStatement sql, PreparedStatement statement) {
        this.sql = sql;
        this.statement = statement;
    }

    public SqlParams bigint(String name, long value) throws SQLException {
        return set(name, position -> statement.setLong(position, value));
    }

    public SqlParams bigint(String name, Long value) throws SQLException {
        return value == null ? set(name, position -> statement.setNull(position, Types.BIGINT)) : bigint(name, (long) value);
    }

    public SqlParams integer(String name, int value) throws SQLException {
        return set(name, position -> statement.setInt(position, value));
    }

    public SqlParams text(String name, String value) throws SQLException {
        return set(name, value == null
                ? position -> statement.setNull(position, Types.VARCHAR)
                : position -> statement.setString(position, value));
    }

    public SqlParams bool(String name, boolean value) throws SQLException {
        return set(name, position -> statement.setBoolean(position, value));
    }

    public SqlParams bytes(String name, byte[] value) throws SQLException {
        return set(name, value == null
                ? position -> statement.setNull(position, Types.BINARY)
                : position -> statement.setBytes(position, value));
    }

    public SqlParams time(String name, Instant value) throws SQLException {
        return set(name, value == null
                ? position -> statement.setNull(position, Types.TIMESTAMP_WITH_TIMEZONE)
                : position -> statement.setObject(position, OffsetDateTime.ofInstant(value, ZoneOffset.UTC)));
    }

    /** Binds a PostgreSQL array, e.g. {@code bigint[]} for {@code = ANY (:ids)}. */
    public SqlParams array(String name, String elementType, Object[] values) throws SQLException {
        java.sql.Array array = statement.getConnection().createArrayOf(elementType, values);
        return set(name, position -> statement.setArray(position, array));
    }

    private SqlParams set(String name, Setter setter) throws SQLException {
        for (int position : sql.positionsOf(name)) {
            setter.set(position);
        }
        if (!bound.add(name)) {
            throw new IllegalArgumentException(sql + ": parameter :" + name + " bound twice");
        }
        return this;
    }

    void requireAllBound() {
        if (!bound.containsAll(sql.parameterNames())) {
            Set<String> missing = new HashSet<>(sql.parameterNames());
            missing.removeAll(bound);
            throw new IllegalArgumentException(sql + ": parameters " + missing + " not bound");
        }
    }
}
