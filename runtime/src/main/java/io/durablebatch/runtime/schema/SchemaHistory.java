package io.durablebatch.runtime.schema;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * The repository's migration history as Flyway recorded it, read in one statement at startup. When
 * it holds every migration of this build, each successful and with its script's checksum, and
 * nothing else but a baseline, Flyway would find nothing to migrate and nothing invalid: the schema
 * is current and Flyway need not start (its start is most of the extension's startup). Anything
 * else, a missing table included, is left to Flyway, which migrates or reports it.
 */
public final class SchemaHistory {

    private SchemaHistory() {
    }

    public static boolean isCurrent(Connection connection, String historyTable, Map<String, Integer> expectedChecksums)
            throws SQLException {
        try (PreparedStatement exists = connection.prepareStatement("SELECT to_regclass(quote_ident(?)) IS NOT NULL")) {
            exists.setString(1, historyTable);
            try (ResultSet row = exists.executeQuery()) {
                if (!row.next() || !row.getBoolean(1)) {
                    return false;
                }
            }
        }
        Map<String, Integer> recorded = new HashMap<>();
        try (PreparedStatement history = connection.prepareStatement(
                "SELECT version, checksum, type, success FROM " + historyTable);
                ResultSet rows = history.executeQuery()) {
            while (rows.next()) {
                String type = rows.getString("type");
                if (!rows.getBoolean("success")) {
                    return false;
                } else if ("SQL".equals(type)) {
                    recorded.put(rows.getString("version"), rows.getObject("checksum", Integer.class));
                } else if (!"BASELINE".equals(type)) {
                    return false;
                }
            }
        }
        return recorded.equals(expectedChecksums);
    }
}
