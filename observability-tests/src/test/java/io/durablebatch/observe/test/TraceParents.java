package io.durablebatch.observe.test;

import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HexFormat;

import javax.sql.DataSource;

/**
 * The trace contexts kept in the repository's {@code trace_parent} columns, read and written as
 * another process would have written them: for spans this process never saw.
 */
final class TraceParents {

    private static final SecureRandom RANDOM = new SecureRandom();

    private TraceParents() {
    }

    /** A trace context of a fresh trace and span id. */
    record Written(String traceId, String spanId) {

        String traceParent() {
            return "00-" + traceId + "-" + spanId + "-01";
        }
    }

    /** Writes a fresh trace context into row {@code id} of {@code table} (e.g. {@code dbatch_job_execution}). */
    static Written writeOfAnotherProcess(DataSource dataSource, String table, long id) throws SQLException {
        Written written = new Written(hex(16), hex(8));
        try (Connection connection = dataSource.getConnection();
                PreparedStatement update = connection.prepareStatement(
                        "UPDATE " + table + " SET trace_parent = ? WHERE id = ?")) {
            update.setString(1, written.traceParent());
            update.setLong(2, id);
            if (update.executeUpdate() != 1) {
                throw new AssertionError("no row " + id + " in " + table);
            }
        }
        return written;
    }

    /** The trace context kept in row {@code id} of {@code table}; {@code null} for none. */
    static String read(DataSource dataSource, String table, long id) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT trace_parent FROM " + table + " WHERE id = ?")) {
            select.setLong(1, id);
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    throw new AssertionError("no row " + id + " in " + table);
                }
                return row.getString(1);
            }
        }
    }

    private static String hex(int bytes) {
        byte[] id = new byte[bytes];
        RANDOM.nextBytes(id);
        return HexFormat.of().formatHex(id);
    }
}
