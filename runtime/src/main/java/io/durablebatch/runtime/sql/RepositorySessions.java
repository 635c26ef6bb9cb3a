package io.durablebatch.runtime.sql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;

import jakarta.inject.Singleton;

import io.agroal.api.AgroalPoolInterceptor;
import io.durablebatch.runtime.DurableBatchConfig;

/**
 * Marks the sessions of the repository's datasource that batch work uses, for the day its process
 * freezes (a long GC pause, a suspended VM) in the middle of a transaction: a frozen process cannot
 * roll back its own transactions, and their row locks would block the recovery of its executions and
 * the restart's writes of the same business keys. A session taken from the pool by a kernel thread
 * ({@link BatchThread}) carries this process's mark ({@link ProcessSessions}) at the head of its
 * {@code application_name}, so that the node recovering its executions can end them; a session taken
 * by any other thread of the application carries the application's own name. The name the session
 * has is the driver's (PostgreSQL reports every change of it), so a session that keeps serving batch
 * work, the steady state, costs no round trip; only a session that passes between batch work and the
 * application's own costs one {@code SET application_name}. PgBouncer tracks {@code application_name}
 * per client, so the mark survives transaction pooling.
 * <p>
 * {@code quarkus.durable-batch.statements.idle-in-transaction-timeout}, when set, is PostgreSQL's
 * {@code idle_in_transaction_session_timeout} of every session of the datasource, as the application
 * asked; there is no default. Applies to the repository's datasource only: the build step qualifies
 * this bean with that datasource's name.
 */
@Singleton
public class RepositorySessions implements AgroalPoolInterceptor {

    private static final String APPLICATION_NAME = "ApplicationName";
    private static final String IDLE_TIMEOUT = "SELECT set_config('idle_in_transaction_session_timeout', ?::text, false)";

    private final ProcessSessions sessions;
    private final long idleInTransactionMillis;
    private final LongAdder renamed = new LongAdder();

    RepositorySessions(DurableBatchConfig config, ProcessSessions sessions) {
        this.sessions = sessions;
        Duration timeout = config.statements().idleInTransactionTimeout().orElse(Duration.ZERO);
        if (timeout.isNegative()) {
            throw new IllegalArgumentException(
                    "quarkus.durable-batch.statements.idle-in-transaction-timeout must not be negative, got " + timeout);
        }
        this.idleInTransactionMillis = timeout.toMillis();
    }

    @Override
    public void onConnectionCreate(Connection connection) {
        if (idleInTransactionMillis == 0) {
            return;
        }
        try (PreparedStatement setUp = connection.prepareStatement(IDLE_TIMEOUT)) {
            setUp.setLong(1, idleInTransactionMillis);
            setUp.executeQuery().close();
            if (!connection.getAutoCommit()) {
                connection.commit();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not set up a new session of the repository's datasource: "
                    + e.getMessage(), e);
        }
    }

    @Override
    public void onConnectionAcquire(Connection connection) {
        try {
            String current = connection.getClientInfo(APPLICATION_NAME);
            String own = sessions.unmarked(current == null ? "" : current);
            String wanted = BatchThread.isCurrent() ? sessions.marked(own) : own;
            if (!wanted.equals(current)) {
                renamed.increment();
                connection.setClientInfo(APPLICATION_NAME, wanted);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not mark a session of the repository's datasource: "
                    + e.getMessage(), e);
        }
    }

    /** How many times a session taken from the pool was renamed (one round trip each): a cost gauge for tests. */
    public long renamed() {
        return renamed.sum();
    }
}
