package io.durablebatch.runtime.schema;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.runtime.DurableBatchBuildTimeConfig;
import io.durablebatch.runtime.DurableBatchConfig;
import io.durablebatch.runtime.schema.SchemaMigrations.Migration;
import io.durablebatch.runtime.sql.RepositoryDataSource;

/**
 * Applies or validates the repository's migrations at startup, before any application code can
 * use the repository. The history is kept in the repository's own table, apart from any
 * migrations the application runs; a start on a current schema reads it once and takes no lock
 * ({@link SchemaMigration} says how the others migrate).
 */
@Singleton
public class SchemaMigrator {

    private static final Logger LOG = Logger.getLogger(SchemaMigrator.class);

    private final DurableBatchConfig config;
    private final RepositoryTables tables;
    private final AgroalDataSource dataSource;
    private final String dataSourceName;

    SchemaMigrator(DurableBatchConfig config, DurableBatchBuildTimeConfig buildConfig, RepositoryTables tables,
            @RepositoryDataSource AgroalDataSource dataSource) {
        this.config = config;
        this.tables = tables;
        this.dataSource = dataSource;
        this.dataSourceName = buildConfig.datasource().map(name -> "'" + name + "'").orElse("<default>");
    }

    /**
     * Migrates the schema to this version's, or validates it when migration at start is off. Run
     * once at runtime init, before anything reads the repository; {@code checksums} are the scripts'
     * as the build computed them ({@link SchemaMigrations#checksums}).
     */
    public void migrate(List<Integer> checksums) {
        try (Connection connection = connect()) {
            // the build's checksums tell a current history from another; the scripts are read only to apply them
            List<String> differences = SchemaMigration.differences(connection, tables.prefix(),
                    SchemaMigrations.described(checksums));
            if (differences.isEmpty()) {
                LOG.debugf("Durable Batch schema at version %s: every migration recorded with its checksum",
                        SchemaMigrations.expectedVersion());
            } else if (config.schema().migrateAtStart()) {
                List<Migration> applied = SchemaMigration.apply(connection, tables.prefix(),
                        SchemaMigrations.load(Thread.currentThread().getContextClassLoader()));
                LOG.debugf("Durable Batch schema at version %s (%d migrations applied)",
                        SchemaMigrations.expectedVersion(), applied.size());
            } else {
                throw new IllegalStateException("The Durable Batch schema (tables '" + tables.prefix()
                        + "*') is not at version " + SchemaMigrations.expectedVersion()
                        + " and quarkus.durable-batch.schema.migrate-at-start is false: " + differences);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Migrating the Durable Batch schema (tables '" + tables.prefix()
                    + "*') failed (SQL state " + e.getSQLState() + "): " + e.getMessage(), e);
        }
    }

    /**
     * A connection of the repository's datasource; fails the start with one line that names the
     * datasource and its URL when the database cannot be reached, rather than with a stack trace.
     */
    private Connection connect() {
        try {
            Connection connection = dataSource.getConnection();
            LOG.debugf("Durable Batch reached its datasource %s", dataSourceName);
            return connection;
        } catch (SQLException e) {
            Throwable root = e;
            while (root.getCause() != null) {
                root = root.getCause();
            }
            String url = dataSource.getConfiguration().connectionPoolConfiguration().connectionFactoryConfiguration()
                    .jdbcUrl();
            IllegalStateException unreachable = new IllegalStateException("Durable Batch cannot reach its datasource "
                    + dataSourceName + " at " + url + ": " + root.getMessage()
                    + ". Start PostgreSQL there, or point the datasource's jdbc.url at one");
            // the message says it all: no stack trace of ours or of the driver's
            unreachable.setStackTrace(new StackTraceElement[0]);
            throw unreachable;
        }
    }
}
