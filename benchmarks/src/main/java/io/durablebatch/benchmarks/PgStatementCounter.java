package io.durablebatch.benchmarks;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import javax.sql.DataSource;

/**
 * Statements as PostgreSQL counts them ({@code pg_stat_statements}, transaction control included),
 * for this database only, so other databases on the same server do not disturb the figures. The
 * counter's own queries are left out. Never resets the view: it is shared by every database.
 */
final class PgStatementCounter {

    private static final String CALLS = "SELECT query, calls FROM pg_stat_statements "
            + "WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) "
            + "AND query NOT LIKE '%pg_stat_statements%'";

    private final DataSource dataSource;

    private PgStatementCounter(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** The counter, or empty when the server does not load {@code pg_stat_statements}. */
    static Optional<PgStatementCounter> open(DataSource dataSource) {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
            PgStatementCounter counter = new PgStatementCounter(dataSource);
            counter.snapshot();
            return Optional.of(counter);
        } catch (SQLException e) {
            return Optional.empty();
        }
    }

    /** Calls per normalized statement text so far. */
    Map<String, Long> snapshot() {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(CALLS);
                ResultSet rows = statement.executeQuery()) {
            Map<String, Long> calls = new LinkedHashMap<>();
            while (rows.next()) {
                calls.merge(rows.getString("query"), rows.getLong("calls"), Long::sum);
            }
            return calls;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read pg_stat_statements: " + e.getMessage(), e);
        }
    }

    /** The calls made between two snapshots, per statement text, leaving out those not called. */
    static Map<String, Long> delta(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> delta = new LinkedHashMap<>();
        after.forEach((query, calls) -> {
            long made = calls - before.getOrDefault(query, 0L);
            if (made > 0) {
                delta.put(query, made);
            }
        });
        return delta;
    }

    static long total(Map<String, Long> calls) {
        return calls.values().stream().mapToLong(Long::longValue).sum();
    }
}
