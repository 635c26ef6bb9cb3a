package io.durablebatch.runtime.health;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import javax.sql.DataSource;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.schema.SchemaMigrations;
import io.durablebatch.runtime.sql.RepositoryDataSource;

/**
 * Ready when the job repository's database answers and its schema is at the version this build
 * expects. Registered only when the application has SmallRye Health.
 */
@Readiness
public class RepositoryHealthCheck implements HealthCheck {

    static final String NAME = "Durable Batch job repository";

    private final DataSource dataSource;
    private final RepositoryTables tables;

    RepositoryHealthCheck(@RepositoryDataSource DataSource dataSource, RepositoryTables tables) {
        this.dataSource = dataSource;
        this.tables = tables;
    }

    @Override
    public HealthCheckResponse call() {
        String expected = SchemaMigrations.expectedVersion();
        HealthCheckResponseBuilder response = HealthCheckResponse.named(NAME)
                .withData("expectedSchemaVersion", expected);
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement("SELECT version FROM "
                        + tables.historyTable() + " WHERE success AND version IS NOT NULL "
                        + "ORDER BY installed_rank DESC LIMIT 1");
                ResultSet result = statement.executeQuery()) {
            String actual = result.next() ? result.getString(1) : "none";
            return response.withData("schemaVersion", actual).status(expected.equals(actual)).build();
        } catch (SQLException e) {
            return response.withData("error", String.valueOf(e.getMessage())).down().build();
        }
    }
}
