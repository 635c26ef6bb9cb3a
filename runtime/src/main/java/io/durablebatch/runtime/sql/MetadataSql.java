package io.durablebatch.runtime.sql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;

import javax.sql.DataSource;

import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;

/**
 * Runs the repository's SQL on the connection that the data source binds to the caller's JTA
 * transaction, so metadata and the application's own writes commit together.
 * <p>
 * SQL failures become {@link RepositoryException}s: transient ones (serialization failure,
 * deadlock, lost connection) as {@code STORAGE_TRANSIENT} so a caller can retry the unit of work,
 * the rest as {@code STORAGE_FAILURE}. Every statement is counted, so hot paths can state their cost.
 */
public final class MetadataSql {

    /** Binds the parameters of one statement by name. */
    @FunctionalInterface
    public interface Binder {
        void bind(SqlParams params) throws SQLException;
    }

    /** Maps the current row of a result. */
    @FunctionalInterface
    public interface RowMapper<T> {
        T map(SqlRow row) throws SQLException;
    }

    private final DataSource dataSource;
    private final TransactionGuard transactions;
    private final int timeoutSeconds;
    private static final ThreadLocal<long[]> STATEMENTS_OF_THREAD = ThreadLocal.withInitial(() -> new long[1]);

    private final LongAdder statements = new LongAdder();

    /**
     * @param statementTimeout how long a statement may run, lock waits included, before the driver
     *        cancels it (SQL state 57014, a transient failure): whole seconds, at least one
     */
    public MetadataSql(DataSource dataSource, TransactionGuard transactions, Duration statementTimeout) {
        this.dataSource = dataSource;
        this.transactions = transactions;
        if (statementTimeout.isNegative() || statementTimeout.isZero()) {
            throw new IllegalArgumentException("quarkus.durable-batch.statements.timeout must be positive, got "
                    + statementTimeout);
        }
        this.timeoutSeconds = (int) Math.min(Integer.MAX_VALUE, Math.max(1, (statementTimeout.toMillis() + 999) / 1000));
    }

    public <T> Optional<T> queryOne(SqlStatement sql, Binder binder, RowMapper<T> mapper) {
        return atMostOne(query(sql, binder, mapper), sql.text());
    }

    public <T> List<T> query(SqlStatement sql, Binder binder, RowMapper<T> mapper) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = prepare(connection, sql.jdbcText())) {
            bind(sql, statement, binder);
            count();
            try (ResultSet resultSet = statement.executeQuery()) {
                return rows(resultSet, mapper);
            }
        } catch (SQLException e) {
            throw failure(e, sql.text());
        }
    }

    public int update(SqlStatement sql, Binder binder) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = prepare(connection, sql.jdbcText())) {
            bind(sql, statement, binder);
            count();
            return statement.executeUpdate();
        } catch (SQLException e) {
            throw failure(e, sql.text());
        }
    }

    private static void bind(SqlStatement sql, PreparedStatement statement, Binder binder) throws SQLException {
        SqlParams params = new SqlParams(sql, statement);
        binder.bind(params);
        params.requireAllBound();
    }

    private static <T> List<T> rows(ResultSet resultSet, RowMapper<T> mapper) throws SQLException {
        List<T> rows = new ArrayList<>();
        SqlRow row = new SqlRow(resultSet);
        while (resultSet.next()) {
            rows.add(mapper.map(row));
        }
        return List.copyOf(rows);
    }

    private static <T> Optional<T> atMostOne(List<T> rows, String sql) {
        if (rows.size() > 1) {
            throw new RepositoryException(RepositoryError.STORAGE_FAILURE,
                    "expected at most one row, got " + rows.size() + " from: " + sql);
        }
        return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
    }

    private PreparedStatement prepare(Connection connection, String sql) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        // the driver's timer cancels the statement: no round trip unless it fires
        statement.setQueryTimeout(timeoutSeconds);
        return statement;
    }

    /** The number of statements issued since start: a cost gauge for tests and benchmarks. */
    public long statementsExecuted() {
        return statements.sum();
    }

    /**
     * The number of statements the calling thread issued: the cost of a call, which a background
     * thread (the lease sweeper, the heartbeat) issuing its own statements meanwhile cannot disturb.
     */
    public long statementsExecutedOnThisThread() {
        return STATEMENTS_OF_THREAD.get()[0];
    }

    private void count() {
        statements.increment();
        STATEMENTS_OF_THREAD.get()[0]++;
    }

    /** Whether {@code e} reports a violation of the named unique constraint. */
    public static boolean isUniqueViolation(Throwable e, String constraint) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && "23505".equals(sql.getSQLState())
                    && sql.getMessage() != null && sql.getMessage().contains(constraint)) {
                return true;
            }
        }
        return false;
    }

    private RepositoryException failure(SQLException e, String sql) {
        // PostgreSQL aborts the transaction on any error: it can only roll back now.
        transactions.markRollbackOnly();
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        boolean transientFailure = TransientFailures.isTransientState(state);
        return new RepositoryException(
                transientFailure ? RepositoryError.STORAGE_TRANSIENT : RepositoryError.STORAGE_FAILURE,
                "SQL state " + state + ": " + e.getMessage(), e);
    }
}
