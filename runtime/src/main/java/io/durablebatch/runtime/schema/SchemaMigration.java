package io.durablebatch.runtime.schema;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import io.durablebatch.runtime.schema.SchemaHistory.Check;
import io.durablebatch.runtime.schema.SchemaMigrations.Migration;

/**
 * One run of the repository's migrations on one connection: all of them in one transaction, under a
 * transaction-level advisory lock, so that nodes starting together migrate once (the others wait,
 * then find the history current) and a pooler in transaction mode keeps the lock with the
 * transaction that holds it (a session-level lock would stay on a pooled server connection).
 * A history that differs from this build (a changed checksum, a failed or unknown migration, one
 * missing below an applied one) is refused before anything changes.
 */
public final class SchemaMigration {

    /** One lock per schema and history table: two repositories under different prefixes migrate independently. */
    private static final String LOCK = """
            SELECT pg_advisory_xact_lock(hashtextextended('durable-batch:' || coalesce(current_schema(), '') || '.' || ?, 0))
            """;

    private SchemaMigration() {
    }

    /**
     * Applies what {@code migrations} holds that the history of the tables under {@code prefix} does
     * not, and returns it (empty when the schema was current). Commits on success, rolls everything
     * back otherwise; leaves the connection's auto-commit as it found it.
     */
    public static List<Migration> apply(Connection connection, String prefix, List<Migration> migrations)
            throws SQLException {
        String historyTable = prefix + "schema_history";
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try {
            try (PreparedStatement lock = connection.prepareStatement(LOCK)) {
                lock.setString(1, historyTable);
                lock.executeQuery().close();
            }
            Check check = SchemaHistory.check(SchemaHistory.read(connection, historyTable), migrations);
            if (!check.problems().isEmpty()) {
                throw new IllegalStateException("The Durable Batch schema (tables '" + prefix
                        + "*') is not migrated to version " + SchemaMigrations.expectedVersion()
                        + ", its history differs from this build: " + check.problems());
            }
            if (!check.exists()) {
                SchemaHistory.create(connection, historyTable);
            }
            int rank = check.lastRank();
            for (Migration migration : check.pending()) {
                long began = System.nanoTime();
                try (Statement statement = connection.createStatement()) {
                    statement.execute(migration.sql(prefix));
                } catch (SQLException e) {
                    throw new IllegalStateException("The Durable Batch migration " + migration + " failed (SQL state "
                            + e.getSQLState() + ": " + e.getMessage() + "); nothing of it nor of " + check.pending()
                            + " was applied", e);
                }
                SchemaHistory.record(connection, historyTable, ++rank, migration, (System.nanoTime() - began) / 1_000_000);
            }
            connection.commit();
            return check.pending();
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(autoCommit);
        }
    }

    /**
     * What stands between the history of the tables under {@code prefix} and {@code migrations}:
     * nothing when the schema is current, else the pending versions and the problems, in words.
     * Read without a lock: for a start that only validates, and for the check that spares a current
     * schema the lock.
     */
    public static List<String> differences(Connection connection, String prefix, List<Migration> migrations)
            throws SQLException {
        Check check = SchemaHistory.check(SchemaHistory.read(connection, prefix + "schema_history"), migrations);
        List<String> differences = new ArrayList<>(check.problems());
        check.pending().forEach(migration -> differences.add(migration + " is not applied"));
        return differences;
    }
}
