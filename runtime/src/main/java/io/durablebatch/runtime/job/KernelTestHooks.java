package io.durablebatch.runtime.job;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

import jakarta.inject.Singleton;
import jakarta.persistence.Table;

import org.jboss.logging.Logger;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.Checks;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.runtime.entity.RepositoryEntities;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.schema.TablePrefix;
import io.durablebatch.runtime.sql.RepositoryDataSource;
import io.durablebatch.runtime.testing.TestHooks;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * The kernel's {@link TestHooks}: a bean only when the test library is on the classpath. The reset
 * empties the tables of the repository's entities, named under the build's table prefix, with one
 * {@code TRUNCATE}; the schema history is not an entity and stays.
 */
@Singleton
public class KernelTestHooks implements TestHooks {

    private static final Logger LOG = Logger.getLogger(KernelTestHooks.class);

    /** How long a reset waits for executions of this process that are just ending. */
    private static final long ENDING_WAIT_MILLIS = 5_000;

    private final JobRegistry registry;
    private final RunningExecutions running;
    private final ChunkFaults faults;
    private final AgroalDataSource dataSource;
    private final String truncate;

    KernelTestHooks(JobRegistry registry, RunningExecutions running, ChunkFaults faults,
            @RepositoryDataSource AgroalDataSource dataSource, RepositoryTables tables) {
        this.registry = registry;
        this.running = running;
        this.faults = faults;
        this.dataSource = dataSource;
        this.truncate = "TRUNCATE TABLE " + RepositoryEntities.CLASSES.stream()
                .map(entity -> TablePrefix.rename(entity.getAnnotation(Table.class).name(), tables.prefix()))
                .collect(Collectors.joining(", "));
    }

    @Override
    public void resetRepository() {
        awaitNoExecutionRunsHere();
        QuarkusTransaction.requiringNew().run(() -> {
            try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
                statement.execute(truncate);
            } catch (SQLException e) {
                throw new IllegalStateException("resetting the job repository failed: " + truncate, e);
            }
            registry.registerUpgrades();
        });
        LOG.debugf("The job repository is reset: %s", truncate);
    }

    private void awaitNoExecutionRunsHere() {
        long deadline = System.nanoTime() + ENDING_WAIT_MILLIS * 1_000_000;
        List<JobExecutionId> active = activeHere();
        while (!active.isEmpty() && System.nanoTime() < deadline) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for executions " + active + " to end", e);
            }
            active = activeHere();
        }
        if (!active.isEmpty()) {
            throw new IllegalStateException("the job repository cannot be reset while job executions " + active
                    + " run in this process: await or stop them first");
        }
    }

    private List<JobExecutionId> activeHere() {
        return running.all().stream().map(ExecutionHandle::id).toList();
    }

    @Override
    public void define(JobDefinition definition) {
        registry.define(Checks.notNull(definition, "definition"));
    }

    @Override
    public BooleanSupplier failChunk(Set<String> jobNames, String stepName, long chunk, Exception failure) {
        return faults.arm(Checks.notNull(jobNames, "jobNames"), Checks.notNull(stepName, "stepName"), chunk,
                Checks.notNull(failure, "failure"));
    }

    @Override
    public void clearFailures() {
        faults.clear();
    }
}
