package io.durablebatch.runtime.schema;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import jakarta.inject.Singleton;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.flywaydb.core.api.output.ValidateResult;
import org.jboss.logging.Logger;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.runtime.DurableBatchBuildTimeConfig;
import io.durablebatch.runtime.DurableBatchConfig;
import io.durablebatch.runtime.sql.RepositoryDataSource;

/**
 * Applies or validates the repository's migrations at startup, before any application code can
 * use the repository. The history is kept in the repository's own table, apart from any
 * migrations the application runs, and Flyway's database lock makes concurrent starts safe.
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
     * once at runtime init, before anything reads the repository.
     */
    public void migrate() {
        requireReachable();
        if (isCurrent()) {
            LOG.debugf("Durable Batch schema at version %s: every migration recorded with its checksum",
                    SchemaMigrations.expectedVersion());
            return;
        }
        Flyway flyway = flyway();
        if (config.schema().migrateAtStart()) {
            MigrateResult result = flyway.migrate();
            LOG.debugf("Durable Batch schema at version %s (%d migrations applied)", result.targetSchemaVersion,
                    result.migrationsExecuted);
        } else {
            ValidateResult result = flyway.validateWithResult();
            if (!result.validationSuccessful) {
                List<String> problems = result.invalidMigrations.stream()
                        .map(m -> "V" + m.version + " " + m.description + ": " + m.errorDetails.errorMessage)
                        .collect(Collectors.toList());
                throw new IllegalStateException("The Durable Batch schema (tables '" + tables.prefix()
                        + "*') is not at version " + SchemaMigrations.expectedVersion()
                        + " and quarkus.durable-batch.schema.migrate-at-start is false: " + problems);
            }
        }
    }

    /**
     * Fails the start with one line that names the datasource and its URL when the database cannot
     * be reached, rather than with Flyway's stack trace.
     */
    private void requireReachable() {
        try (Connection connection = dataSource.getConnection()) {
            LOG.debugf("Durable Batch reached its datasource %s", dataSourceName);
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

    /** Whether the history shows the schema current, so that Flyway need not start; see {@link SchemaHistory}. */
    private boolean isCurrent() {
        ClassLoader classLoader = Thread.currentThread().getContextClassLoader();
        try (Connection connection = dataSource.getConnection()) {
            return SchemaHistory.isCurrent(connection, tables.historyTable(),
                    new SchemaMigrations(classLoader).checksumsByVersion());
        } catch (SQLException e) {
            LOG.debugf(e, "Reading the Durable Batch schema history failed; Flyway checks the schema");
            return false;
        }
    }

    private Flyway flyway() {
        ClassLoader classLoader = Thread.currentThread().getContextClassLoader();
        return Flyway.configure(classLoader)
                .dataSource(dataSource)
                .table(tables.historyTable())
                .placeholders(Map.of("prefix", tables.prefix()))
                .resourceProvider(new SchemaMigrations(classLoader))
                .javaMigrationClassProvider(List::of)
                // The schema usually holds the application's tables too: start our own history at 0.
                .baselineOnMigrate(true)
                .baselineVersion("0")
                .cleanDisabled(true)
                .load();
    }
}
