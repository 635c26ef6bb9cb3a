package io.durablebatch.demo;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import io.agroal.api.AgroalDataSource;
import io.quarkus.runtime.StartupEvent;

/** The demo's own tables: the imported orders, the daily summary the last step writes, and the orders' audit. */
@Singleton
public class DemoSchema {

    private final AgroalDataSource dataSource;

    DemoSchema(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    void onStart(@Observes StartupEvent event) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            // Nodes starting together would race: CREATE TABLE IF NOT EXISTS is not safe against a concurrent
            // CREATE of the same table (a duplicate key in pg_type). One transaction under a lock held to its end.
            connection.setAutoCommit(false);
            statement.execute("SELECT pg_advisory_xact_lock(hashtext('durable-batch demo schema'))");
            statement.execute("CREATE TABLE IF NOT EXISTS demo_orders (placed_on date NOT NULL, id bigint NOT NULL, "
                    + "customer varchar(40) NOT NULL, amount numeric(12, 2) NOT NULL, PRIMARY KEY (placed_on, id))");
            statement.execute("CREATE TABLE IF NOT EXISTS demo_daily_summary (placed_on date PRIMARY KEY, "
                    + "orders bigint NOT NULL, customers bigint NOT NULL, revenue numeric(16, 2) NOT NULL, "
                    + "volume varchar(16) NOT NULL)");
            statement.execute("CREATE TABLE IF NOT EXISTS demo_order_audit (placed_on date NOT NULL, "
                    + "order_id bigint NOT NULL, amount_cents bigint NOT NULL, PRIMARY KEY (placed_on, order_id))");
            // no key: a fire that ran twice would show as two rows
            statement.execute("CREATE TABLE IF NOT EXISTS demo_schedule_ticks (fire_time timestamptz NOT NULL, "
                    + "execution_id bigint NOT NULL, node varchar(100) NOT NULL)");
            connection.commit();
        }
    }
}
