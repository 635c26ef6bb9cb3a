package io.durablebatch.benchmarks;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.RepositoryDataSource;

/**
 * The harness's own SQL on the repository's database: set-up, clean-up and checks, each statement
 * in auto-commit outside any unit of work and never inside a measured window ({@link #roundTrip()}
 * excepted, which is measured). Table names are {@code {p}name} templates resolved with the
 * configured prefix, as in the repository.
 */
@ApplicationScoped
class BenchDatabase {

    private static final Logger LOG = Logger.getLogger(BenchDatabase.class);

    /** Work on one pooled connection. */
    @FunctionalInterface
    interface ConnectionWork<T> {
        T apply(Connection connection) throws SQLException;
    }

    private final AgroalDataSource dataSource;
    private final RepositoryTables tables;

    BenchDatabase(@RepositoryDataSource AgroalDataSource dataSource, RepositoryTables tables) {
        this.dataSource = dataSource;
        this.tables = tables;
    }

    String sql(String template) {
        return tables.substitute(template);
    }

    void execute(String template) {
        withConnection(connection -> {
            try (Statement statement = connection.createStatement()) {
                statement.execute(sql(template));
            }
            return null;
        });
    }

    /** Runs one data-changing statement; returns the rows it changed. */
    int update(String template, Object... parameters) {
        return withConnection(connection -> update(connection, template, parameters));
    }

    /** Runs one data-changing statement on {@code connection}; returns the rows it changed. */
    int update(Connection connection, String template, Object... parameters) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql(template))) {
            bind(statement, parameters);
            return statement.executeUpdate();
        }
    }

    /**
     * Writes the seeded data out now, so that no checkpoint of it competes with a measurement: rows
     * seeded as days old would long be on disk. Needs a superuser or the pg_checkpoint role; without
     * either the run goes on.
     */
    void checkpoint() {
        try {
            execute("CHECKPOINT");
        } catch (IllegalStateException e) {
            LOG.warnf("no CHECKPOINT after seeding: %s", e.getMessage());
        }
    }

    /** The single {@code bigint} the query returns. */
    long queryLong(String template, Object... parameters) {
        List<String> values = queryStrings(template, parameters);
        if (values.size() != 1 || values.get(0) == null) {
            throw new IllegalStateException("expected one value from " + template + ", got " + values);
        }
        return Long.parseLong(values.get(0));
    }

    /** The first column of every row, as text. */
    List<String> queryStrings(String template, Object... parameters) {
        return withConnection(connection -> {
            try (PreparedStatement statement = connection.prepareStatement(sql(template))) {
                bind(statement, parameters);
                List<String> values = new ArrayList<>();
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        values.add(rows.getString(1));
                    }
                }
                return values;
            }
        });
    }

    /**
     * Empties every repository table (those under the prefix, except the migration history), so
     * each workload starts from nothing. Listing them from the catalog keeps this right as later
     * migrations add tables.
     */
    void truncateRepository() {
        String prefix = tables.prefix();
        List<String> owned = queryStrings("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
                + "AND left(tablename, length(?)) = ? AND tablename <> ? ORDER BY tablename",
                prefix, prefix, tables.historyTable());
        if (owned.isEmpty()) {
            throw new IllegalStateException("no repository tables with prefix '" + prefix + "': did the schema migrate?");
        }
        execute("TRUNCATE " + String.join(", ", owned) + " RESTART IDENTITY CASCADE");
    }

    private static void bind(PreparedStatement statement, Object... parameters) throws SQLException {
        for (int i = 0; i < parameters.length; i++) {
            statement.setObject(i + 1, parameters[i]);
        }
    }

    /**
     * One trivial statement on the connection of the caller's unit of work: the floor (pool,
     * driver, round trip, scheduling) under every repository call.
     */
    long roundTrip() {
        return queryLong("SELECT 1");
    }

    /** Holds every connection of the pool at once and reads a repository table on each. */
    void readTableOnEveryConnection() {
        int poolSize = dataSource.getConfiguration().connectionPoolConfiguration().maxSize();
        List<Connection> held = new ArrayList<>(poolSize);
        try {
            for (int i = 0; i < poolSize; i++) {
                Connection connection = dataSource.getConnection();
                held.add(connection);
                try (Statement statement = connection.createStatement()) {
                    statement.execute(sql("SELECT count(*) FROM {p}job_instance"));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("benchmark SQL failed: " + e.getMessage(), e);
        } finally {
            for (Connection connection : held) {
                try {
                    connection.close();
                } catch (SQLException e) {
                    // only returns the connection to the pool: nothing to report
                }
            }
        }
    }

    <T> T withConnection(ConnectionWork<T> work) {
        try (Connection connection = dataSource.getConnection()) {
            return work.apply(connection);
        } catch (SQLException e) {
            throw new IllegalStateException("benchmark SQL failed: " + e.getMessage(), e);
        }
    }
}
