package io.durablebatch.deployment.test.schema;

import static io.durablebatch.deployment.test.RepositoryTestSupport.dropTablesWithPrefix;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.restassured.RestAssured.when;
import static org.hamcrest.Matchers.is;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.QuarkusUnitTest;

/** The readiness check reports the repository UP exactly when its schema is at the expected version. */
class RepositoryReadinessCheckTest {

    private static final String PREFIX = "readiness_";
    private static final String CHECK = "checks.find { it.name == 'Durable Batch job repository' }";

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp()
            .overrideConfigKey("quarkus.durable-batch.schema.table-prefix", PREFIX)
            .setBeforeAllCustomizer(() -> dropTablesWithPrefix(PREFIX));

    @Inject
    AgroalDataSource dataSource;

    @Test
    void readyWhenTheSchemaIsAtTheExpectedVersion() {
        when().get("/q/health/ready").then()
                .statusCode(200)
                .body("status", is("UP"))
                .body(CHECK + ".status", is("UP"))
                .body(CHECK + ".data.schemaVersion", is("1"))
                .body(CHECK + ".data.expectedSchemaVersion", is("1"));
    }

    @Test
    void notReadyWhenTheSchemaIsAtAnotherVersion() throws SQLException {
        // As if a newer build had migrated the shared database past what this build understands.
        execute("INSERT INTO readiness_schema_history (installed_rank, version, description, type, script, "
                + "installed_by, execution_time, success) SELECT max(installed_rank) + 1, '2', 'newer build', 'SQL', "
                + "'V2__newer.sql', 'test', 0, true FROM readiness_schema_history");
        try {
            when().get("/q/health/ready").then()
                    .statusCode(503)
                    .body(CHECK + ".status", is("DOWN"))
                    .body(CHECK + ".data.schemaVersion", is("2"))
                    .body(CHECK + ".data.expectedSchemaVersion", is("1"));
        } finally {
            execute("DELETE FROM readiness_schema_history WHERE version = '2'");
        }
    }

    private void execute(String sql) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
