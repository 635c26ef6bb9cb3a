package io.durablebatch.deployment.test.devservices;

import static io.durablebatch.deployment.test.devservices.OrdersDatabase.single;
import static io.durablebatch.job.Steps.tasklet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.logging.Level;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;
import io.quarkus.agroal.DataSource;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The repository's datasource has no URL and this machine has no container runtime: Durable Batch
 * starts a local PostgreSQL from the installed binaries, the schema migrates into it and a job runs.
 */
class LocalPostgresDevServicesTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = OrdersDatabase.withoutUrl(jar -> jar.addClasses(Jobs.class))
            .setLogRecordPredicate(record -> record.getLoggerName().startsWith("io.durablebatch.deployment.devservices")
                    || record.getLoggerName().startsWith("org.testcontainers")
                    || record.getLevel().intValue() >= Level.SEVERE.intValue())
            .assertLogRecords(records -> {
                // a healthy start without a container runtime says so in one line, with no ERROR of
                // Testcontainers' probe (nor any other)
                List<String> loud = records.stream()
                        .filter(record -> record.getLoggerName().startsWith("org.testcontainers")
                                || record.getLevel().intValue() >= Level.SEVERE.intValue())
                        .map(record -> record.getLevel() + " " + record.getLoggerName() + ": " + record.getMessage()).toList();
                assertEquals(List.of(), loud);
                List<String> started = records.stream().map(record -> ((ExtLogRecord) record).getFormattedMessage())
                        .filter(message -> message.startsWith("Durable Batch started")).toList();
                assertEquals(1, started.size(), "one line says where the server is: " + started);
                assertTrue(
                        started.get(0).matches("Durable Batch started PostgreSQL \\d+.* from \\S+/bin for datasource orders"
                                + " at jdbc:postgresql://127\\.0\\.0\\.1:\\d+/quarkus; data in \\S+, stopped with this JVM"),
                        started.get(0));
            });

    @Singleton
    static class Jobs {
        @Produces
        JobDefinition hello() {
            return Job.named("hello").start(tasklet("greet", context -> RepeatStatus.FINISHED)).build();
        }
    }

    @Inject
    @DataSource("orders")
    AgroalDataSource orders;

    @ConfigProperty(name = "quarkus.datasource.\"orders\".jdbc.url")
    String url;

    @Inject
    JobOperator operator;

    @Test
    void aLocalServerServesTheDatasourceMigratedAndRunsAJob() throws Exception {
        Matcher local = Pattern.compile("jdbc:postgresql://127\\.0\\.0\\.1:(\\d+)/quarkus").matcher(url);
        assertTrue(local.matches(), url);
        assertNotEquals("5432", local.group(1), "not the shared server");

        assertTrue((long) single(orders, "select count(*) from dbatch_schema_history where success") > 0, "migrated");
        assertEquals(ExecutionStatus.COMPLETED, operator.runAndWait("hello", JobParameters.of("run", "1"),
                OperatorCall.by("test")).status());
        assertEquals(ExecutionStatus.COMPLETED, operator.runAndWait("hello", JobParameters.of("run", "2"),
                OperatorCall.by("test")).status());
        assertEquals(2L, single(orders, "select count(*) from dbatch_job_execution where status = 'COMPLETED'"));

        Path root = Path.of((String) single(orders, "show data_directory")).getParent();
        assertTrue(root.getFileName().toString().startsWith("durable-batch-postgres-"), root.toString());
        assertEquals(String.valueOf(ProcessHandle.current().pid()), Files.readString(root.resolve("owner.pid")),
                "the directory names the JVM that owns it");
    }

}
