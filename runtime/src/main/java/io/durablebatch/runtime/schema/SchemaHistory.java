package io.durablebatch.runtime.schema;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.durablebatch.runtime.schema.SchemaMigrations.Migration;

/**
 * The repository's migration history, {@code <prefix>schema_history}, in the layout Flyway gives its
 * own (the repository was migrated by Flyway until it migrated itself): Flyway's rows and ours are
 * read alike, and a history we extend stays one that Flyway, or an older version of the extension,
 * validates. {@link #check} compares it with this build's migrations in one statement.
 */
public final class SchemaHistory {

    /** What Flyway 12 creates for PostgreSQL, column for column. */
    private static final String CREATE = """
            CREATE TABLE %1$s (
                installed_rank INT NOT NULL,
                version VARCHAR(50),
                description VARCHAR(200) NOT NULL,
                type VARCHAR(20) NOT NULL,
                script VARCHAR(1000) NOT NULL,
                checksum INTEGER,
                installed_by VARCHAR(100) NOT NULL,
                installed_on TIMESTAMP NOT NULL DEFAULT now(),
                execution_time INTEGER NOT NULL,
                success BOOLEAN NOT NULL,
                CONSTRAINT %1$s_pk PRIMARY KEY (installed_rank)
            );
            CREATE INDEX %1$s_s_idx ON %1$s (success)
            """;

    private static final String RECORD = """
            INSERT INTO %s (installed_rank, version, description, type, script, checksum, installed_by,
                            execution_time, success)
            VALUES (?, ?, ?, 'SQL', ?, ?, current_user, ?, true)
            """;

    /** Rows Flyway writes that stand for no migration: its baseline and the creation of a schema. */
    private static final Set<String> MARKERS = Set.of("BASELINE", "SCHEMA");

    private SchemaHistory() {
    }

    /** The history's rows, or {@code null} when there is no history table. */
    static List<Row> read(Connection connection, String historyTable) throws SQLException {
        try (PreparedStatement exists = connection.prepareStatement("SELECT to_regclass(quote_ident(?)) IS NOT NULL")) {
            exists.setString(1, historyTable);
            try (ResultSet row = exists.executeQuery()) {
                if (!row.next() || !row.getBoolean(1)) {
                    return null;
                }
            }
        }
        try (PreparedStatement history = connection.prepareStatement(
                "SELECT installed_rank, version, type, checksum, success FROM " + historyTable
                        + " ORDER BY installed_rank")) {
            return rows(history);
        }
    }

    private static List<Row> rows(PreparedStatement history) throws SQLException {
        List<Row> rows = new ArrayList<>();
        try (ResultSet result = history.executeQuery()) {
            while (result.next()) {
                rows.add(new Row(result.getInt("installed_rank"), result.getString("version"),
                        result.getString("type"), result.getObject("checksum", Integer.class),
                        result.getBoolean("success")));
            }
        }
        return rows;
    }

    /** How {@code rows} (null: no history table) stand to {@code migrations}: what is pending, what is wrong. */
    static Check check(List<Row> rows, List<Migration> migrations) {
        Map<String, Migration> byVersion = new HashMap<>();
        migrations.forEach(migration -> byVersion.put(migration.version(), migration));
        String newest = migrations.get(migrations.size() - 1).version();
        List<String> problems = new ArrayList<>();
        List<String> newer = new ArrayList<>();
        Map<String, Row> applied = new HashMap<>();
        int lastRank = 0;
        String highest = null;
        for (Row row : rows == null ? List.<Row> of() : rows) {
            lastRank = Math.max(lastRank, row.rank());
            if (MARKERS.contains(row.type())) {
                continue;
            }
            Migration migration = byVersion.get(row.version());
            if (!row.success()) {
                applied.put(row.version(), row);
                problems.add("V" + row.version() + " failed when it was applied (installed_rank " + row.rank()
                        + "): put the schema back as the version before left it, then delete that row");
            } else if (!"SQL".equals(row.type())) {
                problems.add("installed_rank " + row.rank() + " is a migration of type " + row.type()
                        + ", which the repository never had");
            } else if (migration != null) {
                applied.put(row.version(), row);
                if (row.checksum() == null || row.checksum() != migration.checksum()) {
                    problems.add(migration + " was applied with checksum " + row.checksum() + " but this build's "
                            + migration.script() + " has " + migration.checksum()
                            + ": a shipped migration never changes, so the schema is not what this build expects");
                }
            } else if (VERSIONS.compare(row.version(), newest) > 0) {
                newer.add(row.version());
            } else {
                problems.add("V" + row.version() + " is applied but this build has no such migration");
            }
            if (row.success() && row.version() != null && (highest == null || VERSIONS.compare(row.version(), highest) > 0)) {
                highest = row.version();
            }
        }
        List<Migration> pending = migrations.stream().filter(m -> !applied.containsKey(m.version())).toList();
        for (Migration migration : pending) {
            if (highest != null && VERSIONS.compare(migration.version(), highest) < 0) {
                problems.add(migration + " is not applied but V" + highest + " is");
            }
        }
        return new Check(rows != null, pending, problems, newer, lastRank);
    }

    /** Creates the history table: in Flyway's layout, so that either may read it. */
    static void create(Connection connection, String historyTable) throws SQLException {
        try (Statement create = connection.createStatement()) {
            create.execute(CREATE.formatted(historyTable));
        }
    }

    /** Records {@code migration} as applied, successfully, in {@code millis}. */
    static void record(Connection connection, String historyTable, int rank, Migration migration, long millis)
            throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(RECORD.formatted(historyTable))) {
            insert.setInt(1, rank);
            insert.setString(2, migration.version());
            insert.setString(3, migration.description());
            insert.setString(4, migration.script());
            insert.setInt(5, migration.checksum());
            insert.setInt(6, (int) Math.min(Integer.MAX_VALUE, millis));
            insert.executeUpdate();
        }
    }

    /** Versions compared as Flyway does: dot-separated numbers, part by part. */
    static final Comparator<String> VERSIONS = (a, b) -> {
        String[] left = a.split("\\.");
        String[] right = b.split("\\.");
        for (int i = 0; i < Math.max(left.length, right.length); i++) {
            int order = new java.math.BigInteger(i < left.length ? left[i] : "0")
                    .compareTo(new java.math.BigInteger(i < right.length ? right[i] : "0"));
            if (order != 0) {
                return order;
            }
        }
        return 0;
    };

    /** One row of the history. */
    record Row(int rank, String version, String type, Integer checksum, boolean success) {
    }

    /**
     * How a history stands to this build: whether its table exists, the migrations to apply (oldest
     * first), what forbids going on, the versions applied by a newer build (tolerated, as Flyway
     * does: a rolling upgrade runs both builds for a while), and the last rank recorded.
     */
    record Check(boolean exists, List<Migration> pending, List<String> problems, List<String> newer, int lastRank) {

        boolean current() {
            return exists && pending.isEmpty() && problems.isEmpty();
        }
    }
}
