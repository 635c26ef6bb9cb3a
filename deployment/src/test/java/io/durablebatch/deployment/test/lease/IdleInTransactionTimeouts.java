package io.durablebatch.deployment.test.lease;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import javax.sql.DataSource;

/** Reads the idle-in-transaction timeout a datasource's sessions carry. */
final class IdleInTransactionTimeouts {

    private IdleInTransactionTimeouts() {
    }

    static String of(DataSource dataSource) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement();
                ResultSet setting = statement.executeQuery("SHOW idle_in_transaction_session_timeout")) {
            setting.next();
            return setting.getString(1);
        }
    }
}
