package io.durablebatch.deployment.test.schema;

import static io.durablebatch.deployment.test.RepositoryTestSupport.dropTablesWithPrefix;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.ValidateResult;
import org.junit.jupiter.api.Test;

import io.durablebatch.deployment.test.RepositorySchema;
import io.durablebatch.runtime.schema.SchemaMigration;
import io.durablebatch.runtime.schema.SchemaMigrations;
import io.durablebatch.runtime.schema.SchemaMigrations.Migration;

/**
 * The repository's own migrator on the test database, each case under a table prefix of its own:
 * a fresh schema, a current one, nodes migrating together, a history Flyway wrote (taken over, and
 * still valid to Flyway afterwards), and the histories it refuses, changing nothing.
 */
class SchemaMigrationTest {

    private static final List<Migration> MIGRATIONS = SchemaMigrations.load(SchemaMigrationTest.class.getClassLoader());

    @Test
    void aFreshSchemaIsMigratedOnceThenFoundCurrent() throws SQLException {
        String prefix = fresh("mig_fresh_");
        try (Connection connection = connect()) {
            assertEquals(MIGRATIONS, SchemaMigration.apply(connection, prefix, MIGRATIONS));
            assertTrue(connection.getAutoCommit(), "the connection is left as it was found");
            assertEquals(RepositorySchema.tableNames(prefix), tables(connection, prefix));
            assertEquals(List.of(), SchemaMigration.differences(connection, prefix, MIGRATIONS));
            assertEquals(List.of(), SchemaMigration.apply(connection, prefix, MIGRATIONS), "nothing left to apply");
            assertEquals(expectedHistory(1), history(connection, prefix));
        }
    }

    @Test
    void nodesMigratingTogetherApplyEachVersionOnce() throws Exception {
        String prefix = fresh("mig_race_");
        int nodes = 4;
        CyclicBarrier together = new CyclicBarrier(nodes);
        ExecutorService pool = Executors.newFixedThreadPool(nodes);
        try {
            List<Future<List<Migration>>> runs = new ArrayList<>();
            for (int i = 0; i < nodes; i++) {
                runs.add(pool.submit(() -> {
                    try (Connection connection = connect()) {
                        together.await(30, TimeUnit.SECONDS);
                        return SchemaMigration.apply(connection, prefix, MIGRATIONS);
                    }
                }));
            }
            List<Integer> applied = new ArrayList<>();
            for (Future<List<Migration>> run : runs) {
                applied.add(run.get(2, TimeUnit.MINUTES).size());
            }
            applied.sort(null);
            assertEquals(List.of(0, 0, 0, MIGRATIONS.size()), applied, "one node migrated, the others found it done");
        } finally {
            pool.shutdownNow();
        }
        try (Connection connection = connect()) {
            assertEquals(expectedHistory(1), history(connection, prefix));
        }
    }

    @Test
    void aSchemaFlywayMigratedIsTakenOverAndStaysValidToFlyway() throws SQLException {
        String prefix = fresh("mig_flyway_");
        flyway(prefix).target("8").load().migrate();
        try (Connection connection = connect()) {
            List<List<Object>> byFlyway = history(connection, prefix);
            assertEquals(expectedHistory(1).subList(0, 8).stream().map(row -> row.subList(1, 7)).toList(),
                    byFlyway.stream().filter(row -> !row.get(1).equals("0")).map(row -> row.subList(1, 7)).toList(),
                    "Flyway recorded the versions, descriptions and checksums this build computes");
            assertEquals(MIGRATIONS.subList(8, MIGRATIONS.size()), SchemaMigration.apply(connection, prefix, MIGRATIONS));
            List<List<Object>> after = history(connection, prefix);
            assertEquals(byFlyway, after.subList(0, byFlyway.size()), "Flyway's rows are kept as they were");
            int next = (int) byFlyway.get(byFlyway.size() - 1).get(0) + 1;
            assertEquals(expectedHistory(next - 8).subList(8, MIGRATIONS.size()), after.subList(byFlyway.size(),
                    after.size()), "ours continue its ranks");
            assertEquals(RepositorySchema.tableNames(prefix), tables(connection, prefix));
        }
        ValidateResult validation = flyway(prefix).load().validateWithResult();
        assertTrue(validation.validationSuccessful, () -> "Flyway validates the history we extended: "
                + validation.invalidMigrations.stream().map(m -> m.version + " " + m.errorDetails.errorMessage).toList());
    }

    @Test
    void aChangedChecksumIsRefusedAndNothingIsApplied() throws SQLException {
        String prefix = fresh("mig_checksum_");
        try (Connection connection = connect()) {
            SchemaMigration.apply(connection, prefix, MIGRATIONS.subList(0, 8));
            execute(connection, "UPDATE " + prefix + "schema_history SET checksum = checksum + 1 WHERE version = '1'");
            List<List<Object>> before = history(connection, prefix);
            String schema = schema(connection, prefix);
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> SchemaMigration.apply(connection, prefix, MIGRATIONS));
            assertTrue(refused.getMessage().contains("V1 (job repository core) was applied with checksum "
                    + (MIGRATIONS.get(0).checksum() + 1) + " but this build's V1__job_repository_core.sql has "
                    + MIGRATIONS.get(0).checksum()), refused.getMessage());
            assertEquals(before, history(connection, prefix));
            assertEquals(schema, schema(connection, prefix), "the later migrations were not applied");
            assertTrue(SchemaMigration.differences(connection, prefix, MIGRATIONS).get(0).startsWith("V1 (job repository"));
        }
    }

    @Test
    void aMigrationMissingBelowAnAppliedOneIsRefused() throws SQLException {
        String prefix = fresh("mig_gap_");
        try (Connection connection = connect()) {
            SchemaMigration.apply(connection, prefix, MIGRATIONS);
            execute(connection, "DELETE FROM " + prefix + "schema_history WHERE version = '3'");
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> SchemaMigration.apply(connection, prefix, MIGRATIONS));
            String newest = MIGRATIONS.get(MIGRATIONS.size() - 1).version();
            assertTrue(refused.getMessage().contains("V3 (partitions) is not applied but V" + newest + " is"),
                    refused.getMessage());
            assertEquals(MIGRATIONS.size() - 1, history(connection, prefix).size(), "nothing re-applied");
        }
    }

    @Test
    void aFailedMigrationLeavesNothingBehind() throws SQLException {
        String prefix = fresh("mig_failed_");
        List<Migration> broken = new ArrayList<>(MIGRATIONS);
        broken.add(new Migration("11", "broken", "V11__broken.sql", 11, "CREATE TABLE ${prefix}broken (id bigint;"));
        try (Connection connection = connect()) {
            IllegalStateException failed = assertThrows(IllegalStateException.class,
                    () -> SchemaMigration.apply(connection, prefix, broken));
            assertTrue(failed.getMessage().startsWith("The Durable Batch migration V11 (broken) failed (SQL state 42601"),
                    failed.getMessage());
            assertEquals(new TreeSet<>(), tables(connection, prefix), "all ten versions before it rolled back too");
            assertTrue(connection.getAutoCommit());
        }
    }

    @Test
    void versionsOfANewerBuildAreTolerated() throws SQLException {
        String prefix = fresh("mig_newer_");
        try (Connection connection = connect()) {
            SchemaMigration.apply(connection, prefix, MIGRATIONS);
            execute(connection, "INSERT INTO " + prefix + "schema_history (installed_rank, version, description, type, "
                    + "script, checksum, installed_by, execution_time, success) "
                    + "VALUES (100, '99', 'later', 'SQL', 'V99__later.sql', 1, current_user, 0, true)");
            assertEquals(List.of(), SchemaMigration.differences(connection, prefix, MIGRATIONS),
                    "a rolling upgrade runs this build beside a newer one");
            assertEquals(List.of(), SchemaMigration.apply(connection, prefix, MIGRATIONS));
        }
    }

    /**
     * The rows this build records, ranks from {@code firstRank}: rank, version, description, type, script, checksum, success.
     */
    private static List<List<Object>> expectedHistory(int firstRank) {
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 0; i < MIGRATIONS.size(); i++) {
            Migration migration = MIGRATIONS.get(i);
            rows.add(List.of(firstRank + i, migration.version(), migration.description(), "SQL", migration.script(),
                    migration.checksum(), true));
        }
        return rows;
    }

    private static List<List<Object>> history(Connection connection, String prefix) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT installed_rank, version, description, type, script, "
                        + "checksum, success FROM " + prefix + "schema_history ORDER BY installed_rank")) {
            while (result.next()) {
                List<Object> row = new ArrayList<>();
                for (int column = 1; column <= 7; column++) {
                    row.add(result.getObject(column));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    /** The columns and indexes of the tables under {@code prefix}, as text. */
    private static String schema(Connection connection, String prefix) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("""
                SELECT (SELECT string_agg(table_name || '.' || column_name || ' ' || data_type, ', '
                                          ORDER BY table_name, column_name)
                        FROM information_schema.columns
                        WHERE table_schema = current_schema() AND starts_with(table_name, ?))
                       || ' / ' ||
                       (SELECT string_agg(indexdef, ', ' ORDER BY indexdef) FROM pg_indexes
                        WHERE schemaname = current_schema() AND starts_with(tablename, ?))
                """)) {
            statement.setString(1, prefix);
            statement.setString(2, prefix);
            try (ResultSet result = statement.executeQuery()) {
                result.next();
                return result.getString(1);
            }
        }
    }

    private static TreeSet<String> tables(Connection connection, String prefix) throws SQLException {
        TreeSet<String> names = new TreeSet<>();
        try (PreparedStatement statement = connection.prepareStatement("SELECT tablename FROM pg_tables "
                + "WHERE schemaname = current_schema() AND starts_with(tablename, ?)")) {
            statement.setString(1, prefix);
            try (ResultSet result = statement.executeQuery()) {
                while (result.next()) {
                    names.add(result.getString(1));
                }
            }
        }
        return names;
    }

    private static org.flywaydb.core.api.configuration.FluentConfiguration flyway(String prefix) {
        return Flyway.configure(SchemaMigrationTest.class.getClassLoader())
                .dataSource(System.getProperty("quarkus.datasource.jdbc.url"),
                        System.getProperty("quarkus.datasource.username"),
                        System.getProperty("quarkus.datasource.password"))
                .table(prefix + "schema_history")
                .placeholders(Map.of("prefix", prefix))
                .locations("classpath:" + SchemaMigrations.LOCATION)
                .baselineOnMigrate(true)
                .baselineVersion("0");
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static String fresh(String prefix) {
        dropTablesWithPrefix(prefix);
        return prefix;
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(System.getProperty("quarkus.datasource.jdbc.url"),
                System.getProperty("quarkus.datasource.username"), System.getProperty("quarkus.datasource.password"));
    }
}
