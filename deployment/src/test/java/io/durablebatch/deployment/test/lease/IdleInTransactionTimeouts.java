package io.durablebatch.deployment.test.lease;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import javax.sql.DataSource;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/** Reads the idle-in-transaction timeout a datasource's sessions carry. */
final class IdleInTransactionTimeouts {

    private IdleInTransactionTimeouts() {
    }

    static String of(DataSource dataSource) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            return of(connection);
        }
    }

    /** What a session of the test database's server gets when nobody sets the timeout. */
    static String ofServer() throws SQLException {
        Config config = ConfigProvider.getConfig();
        try (Connection connection = DriverManager.getConnection(
                config.getValue("quarkus.datasource.jdbc.url", String.class),
                config.getValue("quarkus.datasource.username", String.class),
                config.getValue("quarkus.datasource.password", String.class))) {
            return of(connection);
        }
    }

    private static String of(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet setting = statement.executeQuery("SHOW idle_in_transaction_session_timeout")) {
            setting.next();
            return setting.getString(1);
        }
    }
}
