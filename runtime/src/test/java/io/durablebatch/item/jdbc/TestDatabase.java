package io.durablebatch.item.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import org.postgresql.ds.PGSimpleDataSource;

/**
 * The PostgreSQL database of the build ({@code -Dtest.db.url}, which the build passes on as the
 * datasource URL), and a data source that counts what the code under test asks the driver to do.
 */
final class TestDatabase {

    private TestDatabase() {
    }

    static PGSimpleDataSource dataSource() {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setURL(System.getProperty("quarkus.datasource.jdbc.url", "jdbc:postgresql://127.0.0.1:5432/test"));
        dataSource.setUser(System.getProperty("quarkus.datasource.username", "postgres"));
        dataSource.setPassword(System.getProperty("quarkus.datasource.password", "postgres"));
        return dataSource;
    }

    static void execute(DataSource dataSource, String... statements) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    static long queryLong(DataSource dataSource, String sql) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement();
                var rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    /**
     * Counts, over the real driver, the connections borrowed and the calls made on the statements
     * prepared from them ({@code executeQuery}, {@code executeBatch}, {@code addBatch}, ...).
     */
    static final class CountingDataSource extends PGSimpleDataSource {

        private static final long serialVersionUID = 1L;

        private final AtomicInteger connections = new AtomicInteger();
        private final Map<String, AtomicInteger> statementCalls = new ConcurrentHashMap<>();

        CountingDataSource(PGSimpleDataSource target) {
            setURL(target.getURL());
            setUser(target.getUser());
            setPassword(target.getPassword());
        }

        @Override
        public Connection getConnection() throws SQLException {
            connections.incrementAndGet();
            Connection connection = super.getConnection();
            return proxy(Connection.class, connection, (proxy, method, args) -> {
                Object result = invoke(connection, method, args);
                return result instanceof PreparedStatement statement ? counting(statement) : result;
            });
        }

        int connections() {
            return connections.get();
        }

        /** How many times the statements had {@code method} called. */
        int calls(String method) {
            return statementCalls.getOrDefault(method, new AtomicInteger()).get();
        }

        private PreparedStatement counting(PreparedStatement statement) {
            return proxy(PreparedStatement.class, statement, (proxy, method, args) -> {
                statementCalls.computeIfAbsent(method.getName(), name -> new AtomicInteger()).incrementAndGet();
                return invoke(statement, method, args);
            });
        }

        private static <T> T proxy(Class<T> type, T target, InvocationHandler handler) {
            return type.cast(Proxy.newProxyInstance(TestDatabase.class.getClassLoader(), new Class<?>[] { type },
                    handler));
        }

        private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
            try {
                return method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }
}
