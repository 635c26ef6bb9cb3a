package io.durablebatch.deployment.test.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.runtime.sql.TransientFailures;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The one transient-failure classification, against failures PostgreSQL really raises: what a
 * retried unit of work may get past (serialization failure, deadlock, lock and statement timeouts,
 * a terminated session) and what it never will (a duplicate key, a missing table, bad input),
 * bare, wrapped as the repository reports it, and inside a JDBC batch.
 */
class TransientFailuresTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RepositoryTestSupport.repositoryApp();

    @Inject
    AgroalDataSource dataSource;

    @BeforeEach
    void createTable() throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS transient_probe (id int PRIMARY KEY, v int)");
            statement.execute("INSERT INTO transient_probe VALUES (1, 0), (2, 0) ON CONFLICT (id) DO UPDATE SET v = 0");
        }
    }

    @Test
    void aSerializationFailureIsTransient() throws Exception {
        try (Connection reader = dataSource.getConnection(); Connection writer = dataSource.getConnection()) {
            reader.setAutoCommit(false);
            reader.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            query(reader, "SELECT v FROM transient_probe WHERE id = 1");
            update(writer, "UPDATE transient_probe SET v = v + 1 WHERE id = 1");
            assertTransient("40001", assertThrows(SQLException.class,
                    () -> update(reader, "UPDATE transient_probe SET v = v + 1 WHERE id = 1")));
            reader.rollback();
        }
    }

    @Test
    void aDeadlockIsTransient() throws Exception {
        try (Connection first = dataSource.getConnection(); Connection second = dataSource.getConnection()) {
            // pooled sessions keep their settings: no lock timeout may end a wait before the deadlock check
            update(first, "SET lock_timeout = 0");
            update(second, "SET lock_timeout = 0");
            first.setAutoCommit(false);
            second.setAutoCommit(false);
            update(first, "UPDATE transient_probe SET v = 1 WHERE id = 1");
            update(second, "UPDATE transient_probe SET v = 1 WHERE id = 2");
            CompletableFuture<SQLException> firstWaits = CompletableFuture.supplyAsync(() -> failureOf(
                    () -> update(first, "UPDATE transient_probe SET v = 2 WHERE id = 2")));
            Thread.sleep(200);
            CompletableFuture<SQLException> secondWaits = CompletableFuture.supplyAsync(() -> failureOf(
                    () -> update(second, "UPDATE transient_probe SET v = 2 WHERE id = 1")));
            // the server picks one victim, whose locks go with its error: the other update then passes
            SQLException firstFailure = firstWaits.get(30, TimeUnit.SECONDS);
            SQLException secondFailure = secondWaits.get(30, TimeUnit.SECONDS);
            assertTrue(firstFailure == null ^ secondFailure == null, "one victim: " + firstFailure + " / " + secondFailure);
            assertTransient("40P01", firstFailure != null ? firstFailure : secondFailure);
            first.rollback();
            second.rollback();
        }
    }

    @Test
    void lockAndStatementTimeoutsAreTransient() throws Exception {
        try (Connection holder = dataSource.getConnection(); Connection waiter = dataSource.getConnection()) {
            holder.setAutoCommit(false);
            update(holder, "UPDATE transient_probe SET v = 1 WHERE id = 1");
            update(waiter, "SET lock_timeout = '100ms'");
            assertTransient("55P03", assertThrows(SQLException.class,
                    () -> update(waiter, "UPDATE transient_probe SET v = 2 WHERE id = 1")));
            update(waiter, "SET lock_timeout = 0");
            update(waiter, "SET statement_timeout = '100ms'");
            assertTransient("57014", assertThrows(SQLException.class, () -> query(waiter, "SELECT pg_sleep(2)")));
            update(waiter, "SET statement_timeout = 0");
            holder.rollback();
        }
    }

    @Test
    void aTerminatedSessionIsTransient() throws Exception {
        try (Connection victim = dataSource.getConnection(); Connection killer = dataSource.getConnection()) {
            int pid = query(victim, "SELECT pg_backend_pid()");
            try (PreparedStatement terminate = killer.prepareStatement("SELECT pg_terminate_backend(?)")) {
                terminate.setInt(1, pid);
                terminate.executeQuery().close();
            }
            SQLException lost = assertThrows(SQLException.class, () -> query(victim, "SELECT 1"));
            assertTrue(TransientFailures.isTransient(lost), "SQL state " + lost.getSQLState() + ": " + lost);
        }
    }

    @Test
    void failuresARetryCannotPassAreNotTransient() throws Exception {
        try (Connection connection = dataSource.getConnection()) {
            assertNotTransient("23505", assertThrows(SQLException.class,
                    () -> update(connection, "INSERT INTO transient_probe VALUES (1, 0)")));
            assertNotTransient("42P01", assertThrows(SQLException.class,
                    () -> query(connection, "SELECT 1 FROM transient_probe_missing")));
            assertNotTransient("22P02", assertThrows(SQLException.class,
                    () -> query(connection, "SELECT 'x'::int")));
        }
    }

    @Test
    void aBatchNamesItsReasonInItsNextException() throws Exception {
        try (Connection holder = dataSource.getConnection(); Connection batcher = dataSource.getConnection()) {
            holder.setAutoCommit(false);
            update(holder, "UPDATE transient_probe SET v = 1 WHERE id = 2");
            update(batcher, "SET lock_timeout = '100ms'");
            BatchUpdateException batch;
            try (PreparedStatement statement = batcher.prepareStatement("UPDATE transient_probe SET v = ? WHERE id = ?")) {
                for (int id = 1; id <= 2; id++) {
                    statement.setInt(1, 5);
                    statement.setInt(2, id);
                    statement.addBatch();
                }
                batch = assertThrows(BatchUpdateException.class, statement::executeBatch);
            }
            assertTrue(TransientFailures.isTransient(batch), "a batch that hit a lock timeout: " + batch
                    + " / next: " + batch.getNextException());
            holder.rollback();
            update(batcher, "SET lock_timeout = 0");
        }
    }

    private static void assertTransient(String state, SQLException failure) {
        assertEquals(state, failure.getSQLState(), failure.getMessage());
        assertTrue(TransientFailures.isTransientState(state), state);
        assertTrue(TransientFailures.isTransient(failure), state);
        assertTrue(TransientFailures.isTransient(new IllegalStateException("wrapped", failure)), "as a cause: " + state);
        assertTrue(TransientFailures.isTransient(new RepositoryException(RepositoryError.STORAGE_TRANSIENT, state)));
    }

    private static void assertNotTransient(String state, SQLException failure) {
        assertEquals(state, failure.getSQLState(), failure.getMessage());
        assertFalse(TransientFailures.isTransientState(state), state);
        assertFalse(TransientFailures.isTransient(new IllegalStateException("wrapped", failure)), state);
    }

    private static int query(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            return rows.next() ? rows.getInt(1) : 0;
        }
    }

    private static void update(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    @FunctionalInterface
    private interface SqlCall {
        void run() throws SQLException;
    }

    private static SQLException failureOf(SqlCall call) {
        try {
            call.run();
            return null;
        } catch (SQLException e) {
            return e;
        }
    }
}
