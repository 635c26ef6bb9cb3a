package io.durablebatch.jakarta.it;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

import javax.sql.DataSource;

import jakarta.batch.operations.JobOperator;
import jakarta.batch.operations.JobRestartException;
import jakarta.batch.runtime.JobExecution;
import jakarta.batch.runtime.JobInstance;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.quarkus.runtime.StartupEvent;

/**
 * Creates the table and, when {@code numbers.count} is set, starts the job once at startup. A process
 * started without it only serves as the live node that restarts an execution whose owner died: by
 * itself (the owner-loss restart policy), or, with {@code numbers.restart-latest=true}, by
 * {@code JobOperator.restart} of the job's latest execution, asked every half second until it is
 * accepted, each refusal logged.
 */
@ApplicationScoped
public class StartOnRequest {

    private static final Logger LOG = Logger.getLogger(StartOnRequest.class);

    @Inject
    DataSource dataSource;

    @Inject
    JobOperator jobOperator;

    @ConfigProperty(name = "numbers.count")
    Optional<Long> count;

    @ConfigProperty(name = "numbers.restart-latest", defaultValue = "false")
    boolean restartLatest;

    void onStart(@Observes StartupEvent event) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS numbers (n bigint PRIMARY KEY)");
        }
        if (count.isPresent()) {
            Properties parameters = new Properties();
            parameters.setProperty("count", count.get().toString());
            LOG.infof("started execution %d of job numbers", jobOperator.start("numbers", parameters));
        }
        if (restartLatest) {
            Thread restarter = new Thread(this::restartLatestOnceAccepted, "numbers-restart");
            restarter.setDaemon(true);
            restarter.start();
        }
    }

    private void restartLatestOnceAccepted() {
        while (true) {
            Optional<Long> latest = latestExecution();
            if (latest.isPresent()) {
                try {
                    // a restart's parameters replace the execution's: the same ones again
                    LOG.infof("restarted execution %d as execution %d", latest.get(),
                            jobOperator.restart(latest.get(), jobOperator.getParameters(latest.get())));
                    return;
                } catch (JobRestartException e) {
                    LOG.infof("restart refused: %s", e.getMessage());
                }
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** The latest execution of the latest instance of job numbers, if it has one. */
    private Optional<Long> latestExecution() {
        if (!jobOperator.getJobNames().contains("numbers")) {
            return Optional.empty();
        }
        List<JobInstance> instances = jobOperator.getJobInstances("numbers", 0, 1);
        return instances.isEmpty() ? Optional.empty()
                : jobOperator.getJobExecutions(instances.get(0)).stream().map(JobExecution::getExecutionId)
                        .max(Long::compare);
    }
}
