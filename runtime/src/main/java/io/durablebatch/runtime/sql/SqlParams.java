package io.durablebatch.runtime.sql;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Binds a statement's parameters by name, each in every place it appears, with the SQL type of each
 * null spelled out. A name the statement lacks, or a parameter left unbound, is a programming error
 * and fails before the statement runs.
 */
public final class SqlParams {

    private final SqlStatement sql;
    private final PreparedStatement statement;
    // one bit per parameter, by its index: at most 64, as SqlStatement checks
    private long bound;

    SqlParams(SqlStatement sql, PreparedStatement statement) {
        this.sql = sql;
        this.statement = statement;
    }

    public SqlParams bigint(String name, long value) throws SQLException {
        for (int position : positions(name)) {
            statement.setLong(position, value);
        }
        return this;
    }

    public SqlParams bigint(String name, Long value) throws SQLException {
        if (value != null) {
            return bigint(name, (long) value);
        }
        for (int position : positions(name)) {
            statement.setNull(position, Types.BIGINT);
        }
        return this;
    }

    public SqlParams integer(String name, int value) throws SQLException {
        for (int position : positions(name)) {
            statement.setInt(position, value);
        }
        return this;
    }

    public SqlParams text(String name, String value) throws SQLException {
        for (int position : positions(name)) {
            if (value == null) {
                statement.setNull(position, Types.VARCHAR);
            } else {
                statement.setString(position, value);
            }
        }
        return this;
    }

    public SqlParams bool(String name, boolean value) throws SQLException {
        for (int position : positions(name)) {
            statement.setBoolean(position, value);
        }
        return this;
    }

    public SqlParams bytes(String name, byte[] value) throws SQLException {
        for (int position : positions(name)) {
            if (value == null) {
                statement.setNull(position, Types.BINARY);
            } else {
                statement.setBytes(position, value);
            }
        }
        return this;
    }

    public SqlParams time(String name, Instant value) throws SQLException {
        OffsetDateTime time = value == null ? null : OffsetDateTime.ofInstant(value, ZoneOffset.UTC);
        for (int position : positions(name)) {
            if (time == null) {
                statement.setNull(position, Types.TIMESTAMP_WITH_TIMEZONE);
            } else {
                statement.setObject(position, time);
            }
        }
        return this;
    }

    /** Binds a PostgreSQL array, e.g. {@code bigint[]} for {@code = ANY (:ids)}. */
    public SqlParams array(String name, String elementType, Object[] values) throws SQLException {
        int[] positions = positions(name);
        java.sql.Array array = statement.getConnection().createArrayOf(elementType, values);
        for (int position : positions) {
            statement.setArray(position, array);
        }
        return this;
    }

    /** The places of {@code name}, marking it bound; refuses an unknown name and a second binding. */
    private int[] positions(String name) {
        SqlStatement.Parameter parameter = sql.parameter(name);
        long bit = 1L << parameter.index();
        if ((bound & bit) != 0) {
            throw new IllegalArgumentException(sql + ": parameter :" + name + " bound twice");
        }
        bound |= bit;
        return parameter.positions();
    }

    void requireAllBound() {
        int count = sql.parameterNames().size();
        long all = count == Long.SIZE ? -1L : (1L << count) - 1;
        if (bound != all) {
            Set<String> missing = new LinkedHashSet<>();
            int index = 0;
            for (String name : sql.parameterNames()) {
                if ((bound & (1L << index++)) == 0) {
                    missing.add(name);
                }
            }
            throw new IllegalArgumentException(sql + ": parameters " + missing + " not bound");
        }
    }
}
