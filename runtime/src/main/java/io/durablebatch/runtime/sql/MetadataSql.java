package io.durablebatch.runtime.sql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

import javax.sql.DataSource;

import jakarta.persistence.OptimisticLockException;
import jakarta.persistence.PersistenceException;
import jakarta.persistence.Tuple;

import org.hibernate.StaleStateException;
import org.hibernate.StatelessSession;
import org.hibernate.query.CommonQueryContract;
import org.hibernate.query.MutationQuery;
import org.hibernate.query.NativeQuery;
import org.hibernate.query.SelectionQuery;

import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.runtime.entity.RepositoryOwned;

/**
 * Runs the repository's statements through the JTA-bound {@link StatelessSession} of the
 * repository's persistence unit, on the connection the transaction enlisted, so metadata and the
 * application's own writes commit together. No first-level cache, no flush: each call is its
 * statement, run when it is made.
 * <p>
 * Native statements (those that need PostgreSQL itself, see {@code repository.adoc}) are bound by
 * name and mapped by Hibernate into rows; entity operations ({@code insert}, version-checked
 * {@code update}, HQL) map entities. Failures become {@link RepositoryException}s: a stale version
 * as {@code VERSION_CONFLICT}, transient ones (serialization failure, deadlock, lost connection)
 * as {@code STORAGE_TRANSIENT} so a caller can retry the unit of work, the rest as
 * {@code STORAGE_FAILURE}. Every statement is counted, so hot paths can state their cost.
 * <p>
 * The hot paths' statements are the exception ({@link #queryOneByJdbc}): the chunk's one statement,
 * and the launch's and step boundaries' reads and writes of execution rows (the launch, the
 * transitions, the owner's end, {@code getJobExecution}, which an awaiting caller polls, and the steps
 * of an execution or of a listing's page of them) run as plain prepared statements on the same
 * enlisted connection, taken from the repository's datasource, and
 * their rows are mapped by hand ({@code ExecutionRows}), because a Hibernate native query (opening
 * the session, building the query, mapping its one row) cost about three times the statement's own
 * driver time per chunk, and 42% of a launch's CPU (issue 29, {@code benchmarks.adoc}). Without a
 * transaction the datasource hands out an autocommit connection: the operator's read of one execution
 * ({@code JobOperator.execution}), which needs no unit of work, runs there as its own snapshot.
 */
public final class MetadataSql {

    /** Binds the parameters of one statement by name. */
    @FunctionalInterface
    public interface Binder {
        void bind(SqlParams params);
    }

    /** Maps one row of a result. */
    @FunctionalInterface
    public interface RowMapper<T> {
        T map(SqlRow row);
    }

    private final StatelessSession session;
    private final DataSource dataSource;
    private final TransactionGuard transactions;
    private final int timeoutSeconds;
    private static final ThreadLocal<long[]> STATEMENTS_OF_THREAD = ThreadLocal.withInitial(() -> new long[1]);

    private final LongAdder statements = new LongAdder();
    private final LongAdder throughSession = new LongAdder();
    private final StatementTimer timer;
    private final boolean timed;

    /**
     * @param session the transaction-scoped stateless session of the repository's persistence unit
     * @param dataSource the unit's datasource, which hands out the connection the transaction enlisted
     * @param statementTimeout how long a statement may run, lock waits included, before the driver
     *        cancels it (SQL state 57014, a transient failure): whole seconds, at least one
     */
    public MetadataSql(StatelessSession session, DataSource dataSource, TransactionGuard transactions,
            Duration statementTimeout) {
        this(session, dataSource, transactions, statementTimeout, StatementTimer.NONE);
    }

    /** As above, each statement timed by {@code timer}. */
    public MetadataSql(StatelessSession session, DataSource dataSource, TransactionGuard transactions,
            Duration statementTimeout, StatementTimer timer) {
        this.timer = timer;
        this.timed = timer != StatementTimer.NONE;
        this.session = session;
        this.dataSource = dataSource;
        this.transactions = transactions;
        if (statementTimeout.isNegative() || statementTimeout.isZero()) {
            throw new IllegalArgumentException("quarkus.durable-batch.statements.timeout must be positive, got "
                    + statementTimeout);
        }
        this.timeoutSeconds = (int) Math.min(Integer.MAX_VALUE, Math.max(1, statementTimeout.toSeconds()));
    }

    public <T> Optional<T> queryOne(SqlStatement sql, Binder binder, RowMapper<T> mapper) {
        return atMostOne(query(sql, binder, mapper), sql.text());
    }

    /**
     * As {@link #queryOne(SqlStatement, Binder, RowMapper)}, but with JDBC itself on the connection the
     * transaction enlisted (the one Hibernate uses too): no session, no query object, the row read
     * as the driver returns it. For a statement of a hot path (a chunk, a launch, a step boundary),
     * whose scalar parameters and columns need none of Hibernate's mapping.
     */
    public <T> Optional<T> queryOneByJdbc(SqlStatement sql, Binder binder, RowMapper<T> mapper) {
        return atMostOne(queryByJdbc(sql, binder, mapper), sql.text());
    }

    /** As {@link #queryOneByJdbc}, every row of the result. */
    public <T> List<T> queryByJdbc(SqlStatement sql, Binder binder, RowMapper<T> mapper) {
        JdbcBindings bindings = new JdbcBindings(sql.placeholders());
        SqlParams params = new SqlParams(sql, bindings);
        binder.bind(params);
        params.requireAllBound();
        count();
        long began = timed ? System.nanoTime() : 0;
        List<T> rows = new ArrayList<>(1);
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(sql.jdbcText())) {
            bindings.applyTo(statement);
            statement.setQueryTimeout(timeoutSeconds);
            try (ResultSet result = statement.executeQuery()) {
                ResultSetMetaData columns = result.getMetaData();
                String[] labels = new String[columns.getColumnCount()];
                boolean[] pointsInTime = new boolean[labels.length];
                for (int i = 0; i < labels.length; i++) {
                    labels[i] = columns.getColumnLabel(i + 1).toLowerCase(Locale.ROOT);
                    // every point in time of the repository is a timestamptz, which the driver reports as
                    // TIMESTAMP; its type name would cost a catalog lookup per new connection and result shape
                    pointsInTime[i] = columns.getColumnType(i + 1) == Types.TIMESTAMP;
                }
                while (result.next()) {
                    Map<String, Object> row = new HashMap<>(labels.length * 2);
                    for (int i = 0; i < labels.length; i++) {
                        // as an offset date-time, parsed as is: a Timestamp goes through a Calendar per value
                        row.put(labels[i], pointsInTime[i] ? result.getObject(i + 1, OffsetDateTime.class)
                                : result.getObject(i + 1));
                    }
                    rows.add(mapper.map(new SqlRow(column -> row.get(column.toLowerCase(Locale.ROOT)))));
                }
            }
        } catch (SQLException e) {
            throw failure(e, sql.text());
        } finally {
            if (timed) {
                timer.record(sql.toString(), System.nanoTime() - began);
            }
        }
        return rows;
    }

    public <T> List<T> query(SqlStatement sql, Binder binder, RowMapper<T> mapper) {
        return run(sql.toString(), sql.text(), () -> {
            NativeQuery<Tuple> query = prepare(sql, session.createNativeQuery(sql.jdbcText(), Tuple.class), binder);
            List<T> rows = new ArrayList<>();
            for (Tuple tuple : query.getResultList()) {
                rows.add(mapper.map(new SqlRow(tuple)));
            }
            return List.copyOf(rows);
        });
    }

    /**
     * The rows of a statement that returns every column of {@code entity}'s table, mapped by
     * Hibernate to the entity and by {@code mapper} to what the caller returns.
     */
    public <E, T> List<T> query(SqlStatement sql, Binder binder, Class<E> entity, Function<E, T> mapper) {
        return run(sql.toString(), sql.text(), () -> prepare(sql, session.createNativeQuery(sql.jdbcText(), entity), binder)
                .getResultList().stream().map(mapper).toList());
    }

    public <E, T> Optional<T> queryOne(SqlStatement sql, Binder binder, Class<E> entity, Function<E, T> mapper) {
        return atMostOne(query(sql, binder, entity, mapper), sql.text());
    }

    /** As {@link #queryOne(SqlStatement, Binder, Class, Function)}, with one more column beside the entity's. */
    public <E, C, T> Optional<T> queryOne(SqlStatement sql, Binder binder, Class<E> entity, String column,
            Class<C> columnType, BiFunction<E, C, T> mapper) {
        return atMostOne(run(sql.toString(), sql.text(), () -> {
            NativeQuery<?> query = session.createNativeQuery(sql.jdbcText()).addEntity(entity)
                    .addScalar(column, columnType);
            List<T> rows = new ArrayList<>();
            for (Object result : prepare(sql, query, binder).getResultList()) {
                Object[] row = (Object[]) result;
                rows.add(mapper.apply(entity.cast(row[0]), columnType.cast(row[1])));
            }
            return rows;
        }), sql.text());
    }

    public int update(SqlStatement sql, Binder binder) {
        return run(sql.toString(), sql.text(), () -> prepare(sql, session.createNativeMutationQuery(sql.jdbcText()), binder)
                .executeUpdate());
    }

    /** Inserts a new row of a repository entity: one {@code INSERT}, the generated id read back with it. */
    public <E> E insert(E entity) {
        return run(entity.getClass().getSimpleName() + ".insert", entity.getClass().getSimpleName() + " insert",
                () -> RepositoryOwned.write(() -> {
                    countThroughSession();
                    session.insert(entity);
                    return entity;
                }));
    }

    /**
     * Writes a changed repository entity as one {@code UPDATE ... WHERE id = ? AND version = ?},
     * incrementing its version: a row changed since the entity was read fails the call with
     * {@code VERSION_CONFLICT}, and nothing is written.
     */
    public <E> E update(E entity) {
        return run(entity.getClass().getSimpleName() + ".update", entity.getClass().getSimpleName() + " update",
                () -> RepositoryOwned.write(() -> {
                    countThroughSession();
                    session.update(entity);
                    return entity;
                }));
    }

    /** The results of an entity query, each parameter bound by name. */
    public <T> List<T> list(EntityQuery<T> query, Map<String, ?> parameters) {
        return run(query.toString(), query.hql(), () -> {
            SelectionQuery<T> selection = session.createSelectionQuery(query.hql(), query.resultType());
            parameters.forEach(selection::setParameter);
            selection.setTimeout(timeoutSeconds);
            countThroughSession();
            return selection.getResultList();
        });
    }

    /** The one result of an entity query, if any. */
    public <T> Optional<T> one(EntityQuery<T> query, Map<String, ?> parameters) {
        return atMostOne(list(query, parameters), query.hql());
    }

    /** Runs an entity mutation ({@code update versioned ...}), each parameter bound by name: the rows changed. */
    public int mutate(EntityQuery<Integer> mutation, Map<String, ?> parameters) {
        return run(mutation.toString(), mutation.hql(), () -> {
            MutationQuery query = session.createMutationQuery(mutation.hql());
            parameters.forEach(query::setParameter);
            query.setTimeout(timeoutSeconds);
            countThroughSession();
            // a bulk mutation fires no entity callback: RepositoryOwned has nothing to let through
            return query.executeUpdate();
        });
    }

    private <Q extends CommonQueryContract> Q prepare(SqlStatement sql, Q query, Binder binder) {
        SqlParams params = new SqlParams(sql, (position, value, type) -> bind(query, position, value, type));
        binder.bind(params);
        params.requireAllBound();
        // the driver's timer cancels the statement: no round trip unless it fires
        query.setTimeout(timeoutSeconds);
        countThroughSession();
        return query;
    }

    @SuppressWarnings("unchecked")
    private static void bind(CommonQueryContract query, int position, Object value, Class<?> type) {
        query.setParameter(position, value, (Class<Object>) type);
    }

    /** Runs one statement ({@code name} in the catalogue), counted and timed, its failure mapped to the repository's errors. */
    private <T> T run(String name, String what, Supplier<T> statement) {
        long began = timed ? System.nanoTime() : 0;
        try {
            return statement.get();
        } catch (StaleStateException | OptimisticLockException e) {
            // nothing failed in the database (no row matched): the unit of work may go on, as after
            // any other refusal
            throw new RepositoryException(RepositoryError.VERSION_CONFLICT,
                    "the row changed since it was read (" + what + "): " + e.getMessage(), e);
        } catch (PersistenceException e) {
            throw failure(e, what);
        } finally {
            if (timed) {
                timer.record(name, System.nanoTime() - began);
            }
        }
    }

    private static <T> Optional<T> atMostOne(List<T> rows, String sql) {
        if (rows.size() > 1) {
            throw new RepositoryException(RepositoryError.STORAGE_FAILURE,
                    "expected at most one row, got " + rows.size() + " from: " + sql);
        }
        return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
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

    /**
     * How many of {@link #statementsExecuted()} went through the Hibernate session (entity
     * operations, HQL, native queries mapped by Hibernate) rather than plain JDBC: the hot paths
     * pin theirs at none.
     */
    public long statementsThroughSession() {
        return throughSession.sum();
    }

    private void count() {
        statements.increment();
        STATEMENTS_OF_THREAD.get()[0]++;
    }

    private void countThroughSession() {
        count();
        throughSession.increment();
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

    private static SQLException sqlCause(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql) {
                return sql;
            }
        }
        return null;
    }

    private RepositoryException failure(Exception e, String sql) {
        // PostgreSQL aborts the transaction on any error: it can only roll back now.
        transactions.markRollbackOnly();
        SQLException cause = sqlCause(e);
        String state = cause == null || cause.getSQLState() == null ? "" : cause.getSQLState();
        boolean transientFailure = TransientFailures.isTransientState(state);
        return new RepositoryException(
                transientFailure ? RepositoryError.STORAGE_TRANSIENT : RepositoryError.STORAGE_FAILURE,
                "SQL state " + state + ": " + (cause == null ? e : cause).getMessage() + " (" + sql + ")", e);
    }
}
