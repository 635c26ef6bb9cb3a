package io.durablebatch.deployment.test.faults;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverPropertyInfo;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import java.util.logging.Logger;

import org.eclipse.microprofile.config.ConfigProvider;

/**
 * A JDBC driver for tests that breaks the connection at one chosen repository statement, so that
 * nothing in the product changes: configured as {@code quarkus.datasource.jdbc.driver}, Agroal
 * instantiates it and it hands out proxies of {@link org.postgresql.Driver}'s connections, for the
 * unchanged {@code jdbc:postgresql:} URL.
 * <p>
 * <b>Which statements count.</b> A repository statement is one whose SQL names a repository table
 * (the configured {@code quarkus.durable-batch.schema.table-prefix}, by default {@value #DEFAULT_PREFIX}),
 * issued by the kernel: on its execution or partition worker threads
 * (names starting with one of {@link #KERNEL_THREADS}), or on a thread inside {@link #launching}
 * (an operator call of the test, such as {@code JobOperator.start}). The control poller and other
 * periodic threads are left out, so that the ordinal of a statement in a run does not depend on
 * timing. The test's own reads, outside {@link #launching}, are never counted nor faulted.
 * <p>
 * <b>Faults.</b> {@link #arm} picks the {@code ordinal}th counted statement from now (1-based) and
 * a {@link Kind}; the fault fires once, then the driver is transparent again. A broken connection
 * is closed for real (the server rolls its transaction back) and reported with SQL state
 * {@value #CONNECTION_FAILURE}, which Agroal's PostgreSQL exception sorter treats as fatal: the pool
 * destroys the connection when it is returned.
 */
public final class FaultInjectingDriver implements Driver {

    /** How the connection breaks at the chosen statement. */
    public enum Kind {
        /** The statement is not executed: the connection breaks as it is sent. */
        BEFORE,
        /** The statement is executed, then the connection breaks before its result arrives. */
        AFTER,
        /**
         * The statement is executed; its transaction commits, then the acknowledgement is lost. If the
         * transaction rolls back instead, nothing fires.
         */
        COMMIT_LOST
    }

    /** A fault that fired: where, how, on which statement and thread. */
    public record Fired(int ordinal, Kind kind, String sql, String thread) {
        @Override
        public String toString() {
            return "#" + ordinal + " " + kind + " on " + thread + ": " + sql;
        }
    }

    static final String DEFAULT_PREFIX = "dbatch_";
    static final List<String> KERNEL_THREADS = List.of("durable-batch-execution-", "durable-batch-partition-");
    static final String CONNECTION_FAILURE = "08006";

    private static final ThreadLocal<Boolean> LAUNCHING = ThreadLocal.withInitial(() -> false);
    private static final Object LOCK = new Object();
    /** The counted statements since the last {@link #arm} or {@link #record}, in order. */
    private static final List<String> COUNTED = new ArrayList<>();
    private static int armedOrdinal;
    /** Picks the faulted statement by its text instead of its ordinal, when set. */
    private static Predicate<String> armedStatement;
    private static Kind armedKind;
    private static Fired fired;
    /** How many times {@link #arm} was called: a commit loss pending from an earlier arming never fires. */
    private static long armings;

    /** The repository's table prefix, read when Agroal instantiates the driver, at startup. */
    private static volatile String repositoryTables = DEFAULT_PREFIX;

    private final Driver delegate = new org.postgresql.Driver();

    public FaultInjectingDriver() {
        repositoryTables = ConfigProvider.getConfig()
                .getOptionalValue("quarkus.durable-batch.schema.table-prefix", String.class).orElse(DEFAULT_PREFIX);
    }

    /** Counts from now on without faulting: a clean run, whose statements {@link #counted} lists. */
    public static void record() {
        arm(0, null);
    }

    /** Faults the {@code ordinal}th counted statement from now (1-based) with {@code kind}. */
    public static void arm(int ordinal, Kind kind) {
        synchronized (LOCK) {
            COUNTED.clear();
            armings++;
            armedOrdinal = ordinal;
            armedStatement = null;
            armedKind = kind;
            fired = null;
        }
    }

    /**
     * Faults the first counted statement from now whose text (whitespace collapsed) {@code statement}
     * accepts, with {@code kind}: for a statement whose ordinal depends on timing.
     */
    public static void arm(Predicate<String> statement, Kind kind) {
        synchronized (LOCK) {
            arm(0, kind);
            armedStatement = statement;
        }
    }

    /** The counted statements since the last {@link #arm} or {@link #record}, in order, each on one line. */
    public static List<String> counted() {
        synchronized (LOCK) {
            return List.copyOf(COUNTED);
        }
    }

    /** The fault that fired since the last {@link #arm}, if it did. */
    public static Optional<Fired> fired() {
        synchronized (LOCK) {
            return Optional.ofNullable(fired);
        }
    }

    /** Runs {@code call} on this thread with its repository statements counted, as the kernel's are. */
    public static <T> T launching(Callable<T> call) throws Exception {
        LAUNCHING.set(true);
        try {
            return call.call();
        } finally {
            LAUNCHING.set(false);
        }
    }

    /**
     * Counts the statement; returns the fault to inject for it, if it is the chosen one. A lost
     * commit acknowledgement fires (and is recorded by {@link #fired}) only at the commit, if the
     * statement's transaction commits at all.
     */
    private static Optional<Injection> counting(String sql) {
        if (sql == null || !sql.contains(repositoryTables) || !kernelThread()) {
            return Optional.empty();
        }
        String line = sql.strip().replaceAll("\\s+", " ");
        synchronized (LOCK) {
            COUNTED.add(line);
            if (armedKind == null || fired != null || (armedStatement == null ? COUNTED.size() != armedOrdinal
                    : !armedStatement.test(line))) {
                return Optional.empty();
            }
            if (armedStatement != null) {
                armedStatement = null; // once: the statement's retry runs unfaulted
            }
            Fired fault = new Fired(COUNTED.size(), armedKind, line, Thread.currentThread().getName());
            if (armedKind == Kind.COMMIT_LOST) {
                return Optional.of(new PendingLoss(fault, armings));
            }
            fired = fault;
            return Optional.of(new Break(armedKind));
        }
    }

    /** Whether a commit loses its acknowledgement: only for the fault armed now, once. */
    private static boolean commitLost(PendingLoss pending) {
        synchronized (LOCK) {
            if (pending.arming() != armings || fired != null) {
                return false;
            }
            fired = pending.fault();
            return true;
        }
    }

    private static boolean kernelThread() {
        String name = Thread.currentThread().getName();
        return LAUNCHING.get() || KERNEL_THREADS.stream().anyMatch(name::startsWith);
    }

    private static SQLException connectionLost(String what) {
        return new SQLException("injected fault: the connection broke " + what, CONNECTION_FAILURE);
    }

    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        Connection physical = delegate.connect(url, info);
        if (physical == null) {
            return null;
        }
        ConnectionHandler handler = new ConnectionHandler(physical);
        handler.wrapper = proxy(Connection.class, handler);
        return handler.wrapper;
    }

    @Override
    public boolean acceptsURL(String url) throws SQLException {
        return delegate.acceptsURL(url);
    }

    @Override
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) throws SQLException {
        return delegate.getPropertyInfo(url, info);
    }

    @Override
    public int getMajorVersion() {
        return delegate.getMajorVersion();
    }

    @Override
    public int getMinorVersion() {
        return delegate.getMinorVersion();
    }

    @Override
    public boolean jdbcCompliant() {
        return delegate.jdbcCompliant();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return delegate.getParentLogger();
    }

    @SuppressWarnings("unchecked")
    private static <T> T proxy(Class<T> type, InvocationHandler handler) {
        return (T) Proxy.newProxyInstance(FaultInjectingDriver.class.getClassLoader(), new Class<?>[] { type }, handler);
    }

    private static Object forward(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** What happens to the chosen statement. */
    private sealed interface Injection permits Break, PendingLoss {
    }

    /** The connection breaks before or after the statement. */
    private record Break(Kind kind) implements Injection {
    }

    /**
     * The statement runs; the commit of its transaction, made under arming number {@code arming}, loses its acknowledgement.
     */
    private record PendingLoss(Fired fault, long arming) implements Injection {
    }

    /** One physical connection: wraps its statements, and loses the acknowledgement of a commit when told. */
    private static final class ConnectionHandler implements InvocationHandler {
        private final Connection physical;
        /** What the pool holds: statements answer it as their connection. */
        private Connection wrapper;
        /** The statement whose transaction loses its commit acknowledgement, until that transaction ends. */
        private volatile PendingLoss pendingCommitLoss;

        ConnectionHandler(Connection physical) {
            this.physical = physical;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            switch (method.getName()) {
                case "prepareStatement":
                    return proxy(PreparedStatement.class,
                            new StatementHandler(this, forward(physical, method, args), (String) args[0]));
                case "prepareCall":
                    return proxy(CallableStatement.class,
                            new StatementHandler(this, forward(physical, method, args), (String) args[0]));
                case "createStatement":
                    return proxy(Statement.class, new StatementHandler(this, forward(physical, method, args), null));
                case "commit":
                    PendingLoss pending = pendingCommitLoss;
                    pendingCommitLoss = null;
                    if (pending != null && commitLost(pending)) {
                        physical.commit();
                        physical.close();
                        throw connectionLost("after the commit, before its acknowledgement");
                    }
                    return forward(physical, method, args);
                case "rollback":
                    pendingCommitLoss = null;
                    return forward(physical, method, args);
                default:
                    return forward(physical, method, args);
            }
        }

        /** Applies {@code fault} to the statement run by {@code execute}. */
        Object inject(Optional<Injection> fault, Callable<Object> execute) throws Exception {
            if (fault.isEmpty()) {
                return execute.call();
            }
            if (fault.get() instanceof PendingLoss loss) {
                pendingCommitLoss = loss;
                return execute.call();
            }
            if (((Break) fault.get()).kind() == Kind.BEFORE) {
                physical.close();
                throw connectionLost("before the statement was executed");
            }
            execute.call();
            physical.close();
            throw connectionLost("after the statement was executed, before its result arrived");
        }
    }

    /** One statement: counts its executions, and faults the chosen one. */
    private static final class StatementHandler implements InvocationHandler {
        private final ConnectionHandler connection;
        private final Object statement;
        private final String preparedSql;

        StatementHandler(ConnectionHandler connection, Object statement, String preparedSql) {
            this.connection = connection;
            this.statement = statement;
            this.preparedSql = preparedSql;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            if (method.getName().equals("getConnection")) {
                return connection.wrapper;
            }
            if (!method.getName().startsWith("execute")) {
                return forward(statement, method, args);
            }
            String sql = args != null && args.length > 0 && args[0] instanceof String text ? text : preparedSql;
            return connection.inject(counting(sql), () -> {
                try {
                    return forward(statement, method, args);
                } catch (Exception | Error e) {
                    throw e;
                } catch (Throwable e) {
                    throw new IllegalStateException(e);
                }
            });
        }
    }
}
