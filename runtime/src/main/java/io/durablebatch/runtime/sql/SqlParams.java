package io.durablebatch.runtime.sql;

import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Binds a statement's parameters by name, each in every place it appears, by their Java type (so a
 * null still has its SQL type): to a Hibernate query, or to a JDBC statement ({@link JdbcBindings}).
 * A name the statement lacks, or a parameter left unbound, is a programming error and fails before
 * the statement runs.
 */
public final class SqlParams {

    /** Where the values go: one JDBC position at a time. */
    @FunctionalInterface
    interface Sink {
        void set(int position, Object value, Class<?> type);
    }

    private final SqlStatement sql;
    private final Sink sink;
    // one bit per parameter, by its index: at most 64, as SqlStatement checks
    private long bound;

    SqlParams(SqlStatement sql, Sink sink) {
        this.sql = sql;
        this.sink = sink;
    }

    public SqlParams bigint(String name, long value) {
        return bind(name, value, Long.class);
    }

    public SqlParams bigint(String name, Long value) {
        return bind(name, value, Long.class);
    }

    public SqlParams integer(String name, int value) {
        return bind(name, value, Integer.class);
    }

    public SqlParams text(String name, String value) {
        return bind(name, value, String.class);
    }

    public SqlParams bool(String name, boolean value) {
        return bind(name, value, Boolean.class);
    }

    public SqlParams bytes(String name, byte[] value) {
        return bind(name, value, byte[].class);
    }

    public SqlParams time(String name, Instant value) {
        return bind(name, value, Instant.class);
    }

    /** Binds a PostgreSQL array, e.g. {@code bigint[]} for {@code = ANY (:ids)}. */
    public SqlParams bigints(String name, Long[] values) {
        return bind(name, values, Long[].class);
    }

    /** Binds a PostgreSQL {@code integer[]}. */
    public SqlParams integers(String name, Integer[] values) {
        return bind(name, values, Integer[].class);
    }

    /** Binds a PostgreSQL {@code varchar[]}. */
    public SqlParams texts(String name, String[] values) {
        return bind(name, values, String[].class);
    }

    /** Binds a PostgreSQL {@code bytea[]}. */
    public SqlParams byteArrays(String name, byte[][] values) {
        return bind(name, values, byte[][].class);
    }

    private <T> SqlParams bind(String name, T value, Class<T> type) {
        for (int position : positions(name)) {
            sink.set(position, value, type);
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
