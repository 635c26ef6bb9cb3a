package io.durablebatch.runtime.sql;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.ConfigProvider;

import io.agroal.api.AgroalPoolInterceptor;
import io.durablebatch.runtime.DurableBatchConfig;

/**
 * Sets up every new session of the repository's datasource so that PostgreSQL, on its own clock,
 * ends a session left idle inside a transaction
 * ({@code quarkus.durable-batch.statements.idle-in-transaction-timeout}). A frozen process cannot
 * roll back its own transactions, and their row locks would block the recovery of its executions
 * and the restart's inserts of the same business keys; the server ending them is what lets a live
 * node take over. Applies to the repository's datasource only: the build step qualifies this bean
 * with that datasource's name.
 */
@Singleton
public class RepositorySessions implements AgroalPoolInterceptor {

    private static final String TRANSACTION_TIMEOUT = "quarkus.transaction-manager.default-transaction-timeout";

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

    /** The session setting in milliseconds; zero when the server's own setting stays. */
    public long idleInTransactionMillis() {
        return idleInTransactionMillis;
    }

    @Override
    public void onConnectionCreate(Connection connection) {
        if (idleInTransactionMillis == 0) {
            return;
        }
        try (Statement statement = connection.createStatement()) {
            // A session setting: it outlives every transaction of the pooled connection.
            statement.execute("SET SESSION idle_in_transaction_session_timeout = " + idleInTransactionMillis);
            if (!connection.getAutoCommit()) {
                connection.commit();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not set idle_in_transaction_session_timeout on a new session of "
                    + "the repository's datasource: " + e.getMessage(), e);
        }
    }
}
