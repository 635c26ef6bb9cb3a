package io.durablebatch.jakarta.it;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.Properties;

import javax.sql.DataSource;

import jakarta.batch.operations.JobOperator;
import jakarta.batch.operations.JobRestartException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.quarkus.runtime.StartupEvent;

/**
 * Creates the table and, when {@code numbers.count} is set, starts the job once at startup. A process
 * started without it only serves as the live node that restarts an execution whose owner died: by
 * itself (the owner-loss restart policy), or, when {@code numbers.restart} names the execution, by
 * {@code JobOperator.restart}, asked every half second until it is accepted, each refusal logged.
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

    @ConfigProperty(name = "numbers.restart")
    Optional<Long> restart;

    void onStart(@Observes StartupEvent event) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS numbers (n bigint PRIMARY KEY)");
        }
        if (count.isPresent()) {
            Properties parameters = new Properties();
            parameters.setProperty("count", count.get().toString());
            LOG.infof("started execution %d of job numbers", jobOperator.start("numbers", parameters));
        }
        restart.ifPresent(id -> {
            Thread restarter = new Thread(() -> restartOnceAccepted(id), "numbers-restart");
            restarter.setDaemon(true);
            restarter.start();
        });
    }

    private void restartOnceAccepted(long id) {
        while (true) {
            try {
                LOG.infof("restarted execution %d as execution %d", id, jobOperator.restart(id, new Properties()));
                return;
            } catch (JobRestartException e) {
                LOG.infof("restart refused: %s", e.getMessage());
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
