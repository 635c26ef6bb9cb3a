package io.durablebatch.deployment.test.schema;

import static io.durablebatch.deployment.test.RepositoryTestSupport.dropTablesWithPrefix;
import static io.durablebatch.deployment.test.RepositoryTestSupport.freshKey;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.repository.ExecutionStatus;
import io.durablebatch.repository.JobExecution;
import io.durablebatch.repository.JobInstance;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.StepExecution;
import io.durablebatch.repository.StepName;
import io.quarkus.test.QuarkusUnitTest;

/** SPEC §10: the extension creates and uses its tables, history and indexes under the configured prefix. */
class CustomTablePrefixTest {

    private static final String PREFIX = "custom_";

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp()
            .overrideConfigKey("quarkus.durable-batch.schema.table-prefix", PREFIX)
            // No leftovers of an earlier run: the tables below must be created by this start.
            .setBeforeAllCustomizer(() -> dropTablesWithPrefix(PREFIX));

    @Inject
    JobRepository repository;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void theTablesAndTheirIndexesAreCreatedUnderThePrefix() throws SQLException {
        assertEquals(Set.of("custom_job_instance", "custom_job_execution", "custom_step_execution",
                "custom_definition_upgrade", "custom_recovery_decision", "custom_schema_history"),
                new TreeSet<>(strings("SELECT table_name FROM information_schema.tables "
                        + "WHERE table_schema = current_schema() AND starts_with(table_name, ?)", PREFIX)));
        List<String> indexes = strings("SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() "
                + "AND starts_with(tablename, ?)", PREFIX);
        assertTrue(indexes.size() >= 10, indexes::toString);
        assertTrue(indexes.stream().allMatch(index -> index.startsWith(PREFIX)), indexes::toString);
        assertEquals(List.of("1"), strings("SELECT version FROM custom_schema_history WHERE success "
                + "AND version IS NOT NULL AND version <> ?", "0"));
    }

    @Test
    void theRepositoryWorksOnThePrefixedTables() throws SQLException {
        JobInstance instance = tx(() -> repository.selectOrCreateJobInstance(freshKey("prefixed"))).instance();
        JobExecution execution = tx(() -> repository.createJobExecution(instance.id()));
        StepExecution step = tx(() -> repository.createStepExecution(execution.id(), StepName.of("only")));
        tx(() -> repository.transitionJobExecution(execution.id(), execution.version(),
                LifecycleTransition.to(ExecutionStatus.FAILED, now())));

        assertEquals(List.of(instance.jobName().value()),
                strings("SELECT job_name FROM custom_job_instance WHERE id = " + instance.id().value()));
        assertEquals(List.of("FAILED"),
                strings("SELECT status FROM custom_job_execution WHERE id = " + execution.id().value()));
        assertEquals(List.of("only"),
                strings("SELECT step_name FROM custom_step_execution WHERE id = " + step.id().value()));
    }

    private List<String> strings(String sql, String... parameters) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setString(i + 1, parameters[i]);
            }
            try (ResultSet result = statement.executeQuery()) {
                List<String> values = new ArrayList<>();
                while (result.next()) {
                    values.add(result.getString(1));
                }
                return values;
            }
        }
    }
}
