package io.durablebatch.deployment.test.schema;

import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.schema.SchemaHistory;
import io.durablebatch.runtime.schema.SchemaMigrations;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A start on a current schema does not start Flyway: the checksums this build computes are those
 * Flyway recorded, and any other history (a changed checksum, a missing or failed migration, no
 * history table) is left to Flyway. Changes to the history are rolled back.
 */
class CurrentSchemaHistoryTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp();

    @Inject
    RepositoryTables tables;

    private final Map<String, Integer> checksums = new SchemaMigrations(getClass().getClassLoader()).checksumsByVersion();

    @Test
    void aMigratedSchemaIsCurrent() throws SQLException {
        try (Connection connection = connect()) {
            assertTrue(SchemaHistory.isCurrent(connection, tables.historyTable(), checksums));
        }
    }

    @Test
    void aChangedChecksumIsLeftToFlyway() throws SQLException {
        assertNotCurrentAfter("UPDATE " + tables.historyTable() + " SET checksum = checksum + 1 WHERE version = '1'");
    }

    @Test
    void aMissingMigrationIsLeftToFlyway() throws SQLException {
        assertNotCurrentAfter("DELETE FROM " + tables.historyTable() + " WHERE version = '"
                + SchemaMigrations.expectedVersion() + "'");
    }

    @Test
    void aFailedMigrationIsLeftToFlyway() throws SQLException {
        assertNotCurrentAfter("UPDATE " + tables.historyTable() + " SET success = false WHERE version = '1'");
    }

    @Test
    void noHistoryTableIsLeftToFlyway() throws SQLException {
        try (Connection connection = connect()) {
            assertFalse(SchemaHistory.isCurrent(connection, "no_such_schema_history", checksums));
        }
    }

    private void assertNotCurrentAfter(String change) throws SQLException {
        try (Connection connection = connect()) {
            connection.setAutoCommit(false);
            try (Statement statement = connection.createStatement()) {
                statement.executeUpdate(change);
                assertFalse(SchemaHistory.isCurrent(connection, tables.historyTable(), checksums));
            } finally {
                connection.rollback();
            }
        }
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(System.getProperty("quarkus.datasource.jdbc.url"),
                System.getProperty("quarkus.datasource.username"), System.getProperty("quarkus.datasource.password"));
    }
}
