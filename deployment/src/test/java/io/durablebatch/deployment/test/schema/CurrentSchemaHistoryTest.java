package io.durablebatch.deployment.test.schema;

import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.schema.SchemaMigration;
import io.durablebatch.runtime.schema.SchemaMigrations;
import io.durablebatch.runtime.schema.SchemaMigrations.Migration;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A start on a current schema only reads the history, and compares it with the checksums the build
 * computed, reading none of the scripts: the schema the application migrated at its
 * start has no differences, and any other history (a changed checksum, a missing or failed
 * migration, no history table) has, each named. Changes to the history are rolled back.
 */
class CurrentSchemaHistoryTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp();

    @Inject
    RepositoryTables tables;

    /** What a start compares the history with: the checksums the build computed, no script read. */
    private final List<Migration> migrations = SchemaMigrations
            .described(SchemaMigrations.checksums(getClass().getClassLoader()));

    @Test
    void theBuildsChecksumsDescribeTheScriptsWithoutTheirText() {
        List<Migration> loaded = SchemaMigrations.load(getClass().getClassLoader());
        assertEquals(loaded.stream().map(m -> m.version() + " " + m.script() + " " + m.checksum()).toList(),
                migrations.stream().map(m -> m.version() + " " + m.script() + " " + m.checksum()).toList());
        assertTrue(migrations.stream().allMatch(m -> m.text() == null), "no script read to check a history");
    }

    @Test
    void aMigratedSchemaIsCurrent() throws SQLException {
        try (Connection connection = connect()) {
            assertEquals(List.of(), SchemaMigration.differences(connection, tables.prefix(), migrations));
        }
    }

    @Test
    void aChangedChecksumIsADifference() throws SQLException {
        assertDifferenceAfter("UPDATE " + tables.historyTable() + " SET checksum = checksum + 1 WHERE version = '1'",
                "V1 (job repository core) was applied with checksum");
    }

    @Test
    void aMissingMigrationIsADifference() throws SQLException {
        assertDifferenceAfter("DELETE FROM " + tables.historyTable() + " WHERE version = '"
                + SchemaMigrations.expectedVersion() + "'", "V" + SchemaMigrations.expectedVersion() + " (");
    }

    @Test
    void aFailedMigrationIsADifference() throws SQLException {
        assertDifferenceAfter("UPDATE " + tables.historyTable() + " SET success = false WHERE version = '1'",
                "V1 failed when it was applied");
    }

    @Test
    void noHistoryTableLeavesEveryMigrationPending() throws SQLException {
        try (Connection connection = connect()) {
            assertEquals(migrations.size(), SchemaMigration.differences(connection, "no_such_", migrations).size());
        }
    }

    private void assertDifferenceAfter(String change, String difference) throws SQLException {
        try (Connection connection = connect()) {
            connection.setAutoCommit(false);
            try (Statement statement = connection.createStatement()) {
                statement.executeUpdate(change);
                List<String> differences = SchemaMigration.differences(connection, tables.prefix(), migrations);
                assertTrue(differences.size() == 1 && differences.get(0).startsWith(difference), differences::toString);
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
