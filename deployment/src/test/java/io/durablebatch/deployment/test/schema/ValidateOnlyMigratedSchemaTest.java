package io.durablebatch.deployment.test.schema;

import static io.durablebatch.deployment.test.RepositoryTestSupport.dropTablesWithPrefix;
import static io.durablebatch.deployment.test.RepositoryTestSupport.freshKey;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositorySchema;
import io.durablebatch.deployment.test.StoredState;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.JobInstanceSelection;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.schema.SchemaMigrations;
import io.quarkus.test.QuarkusUnitTest;

/**
 * With {@code migrate-at-start=false}, a schema migrated out of band (by an operator, with Flyway,
 * the shipped scripts, the {@code prefix} placeholder and the {@code <prefix>schema_history} table,
 * as the extension itself did before it migrated on its own) passes validation and the repository
 * works on it.
 */
class ValidateOnlyMigratedSchemaTest {

    private static final String PREFIX = "validated_";

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp()
            .overrideConfigKey("quarkus.durable-batch.schema.table-prefix", PREFIX)
            .overrideConfigKey("quarkus.durable-batch.schema.migrate-at-start", "false")
            .setBeforeAllCustomizer(ValidateOnlyMigratedSchemaTest::migrateOutOfBand);

    @Inject
    KernelRepository repository;

    @Inject
    StoredState state;

    @Test
    void theValidatedSchemaHasEveryTableAtTheExpectedVersion() {
        assertEquals(RepositorySchema.tableNames(PREFIX), state.rows("SELECT table_name FROM information_schema.tables "
                + "WHERE table_schema = current_schema() AND starts_with(table_name, ?)", PREFIX).stream()
                .map(row -> (String) row.get("table_name")).collect(Collectors.toCollection(TreeSet::new)));
        assertEquals(SchemaMigrations.expectedVersion(), state.rows("SELECT version FROM validated_schema_history "
                + "WHERE success ORDER BY installed_rank DESC LIMIT 1").get(0).get("version"));
    }

    @Test
    void theRepositoryWorksOnTheValidatedSchema() {
        JobInstanceSelection selection = tx(() -> repository.selectOrCreateJobInstance(freshKey("validated")));
        assertTrue(selection.created());
        assertEquals(ExecutionStatus.STARTING,
                tx(() -> repository.createJobExecution(JobExecutionRequest.of(selection.instance().id()))).status());
    }

    private static void migrateOutOfBand() {
        dropTablesWithPrefix(PREFIX);
        ClassLoader classLoader = ValidateOnlyMigratedSchemaTest.class.getClassLoader();
        Flyway.configure(classLoader)
                .dataSource(System.getProperty("quarkus.datasource.jdbc.url"),
                        System.getProperty("quarkus.datasource.username"),
                        System.getProperty("quarkus.datasource.password"))
                .table(PREFIX + "schema_history")
                .placeholders(Map.of("prefix", PREFIX))
                .locations("classpath:" + SchemaMigrations.LOCATION)
                .baselineOnMigrate(true)
                .baselineVersion("0")
                .load()
                .migrate();
    }
}
