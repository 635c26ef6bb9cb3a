package io.durablebatch.runtime.sql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;

import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.ConfigProvider;

import io.agroal.api.AgroalPoolInterceptor;
import io.durablebatch.runtime.DurableBatchConfig;

/**
 * Sets up every new session of the repository's datasource for the day its process freezes (a long
 * GC pause, a suspended VM) in the middle of a transaction: a frozen process cannot roll back its
 * own transactions, and their row locks would block the recovery of its executions and the
 * restart's writes of the same business keys. PostgreSQL ends, on its own clock, a session left idle
 * inside a transaction ({@code quarkus.durable-batch.statements.idle-in-transaction-timeout}); and
 * the session carries this process's mark ({@link ProcessSessions}), so that the node recovering its
 * executions can end the sessions it froze in the middle of a statement too. Applies to the
 * repository's datasource only: the build step qualifies this bean with that datasource's name.
 */
@Singleton
public class RepositorySessions implements AgroalPoolInterceptor {

    private static final String TRANSACTION_TIMEOUT = "quarkus.transaction-manager.default-transaction-timeout";

    /** The process's mark ahead of the application's own name; the idle timeout unless it is zero. */
    private static final String SET_UP = """
            SELECT set_config('application_name', rtrim(? || ' ' || current_setting('application_name')), false),
                   CASE WHEN ? > 0 THEN set_config('idle_in_transaction_session_timeout', ?::text, false) END
            """;

    private final long idleInTransactionMillis;

    RepositorySessions(DurableBatchConfig config) {
        Duration timeout = config.statements().idleInTransactionTimeout()
                .orElseGet(() -> ConfigProvider.getConfig().getOptionalValue(TRANSACTION_TIMEOUT, Duration.class)
                        .orElse(Duration.ofSeconds(60)));
        if (timeout.isNegative()) {
            throw new IllegalArgumentException(
                    "quarkus.durable-batch.statements.idle-in-transaction-timeout must not be negative, got " + timeout);
        }
        this.idleInTransactionMillis = timeout.toMillis();
    }

    @Override
    public void onConnectionCreate(Connection connection) {
        // Session settings, one round trip: they outlive every transaction of the pooled connection.
        try (PreparedStatement setUp = connection.prepareStatement(SET_UP)) {
            setUp.setString(1, ProcessSessions.MARK);
            setUp.setLong(2, idleInTransactionMillis);
            setUp.setLong(3, idleInTransactionMillis);
            setUp.executeQuery().close();
            if (!connection.getAutoCommit()) {
                connection.commit();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not set up a new session of the repository's datasource: "
                    + e.getMessage(), e);
        }
    }
}
