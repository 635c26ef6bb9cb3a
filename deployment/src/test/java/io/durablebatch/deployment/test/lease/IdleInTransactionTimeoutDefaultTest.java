package io.durablebatch.deployment.test.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Unset, the idle-in-transaction timeout is the server's: the repository's datasource is the
 * application's too, and the extension imposes no session setting on its work.
 */
class IdleInTransactionTimeoutDefaultTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RepositoryTestSupport.repositoryApp(IdleInTransactionTimeouts.class)
            .overrideConfigKey("quarkus.transaction-manager.default-transaction-timeout", "45s");

    @Inject
    AgroalDataSource dataSource;

    @Test
    void isTheServersNotTheTransactionTimeout() throws SQLException {
        String server;
        try (Connection connection = DriverManager.getConnection(url, username, password);
                Statement statement = connection.createStatement();
                ResultSet setting = statement.executeQuery("SHOW idle_in_transaction_session_timeout")) {
            setting.next();
            server = setting.getString(1);
        }
        assertEquals(server, IdleInTransactionTimeouts.of(dataSource));
    }

    @ConfigProperty(name = "quarkus.datasource.jdbc.url")
    String url;

    @ConfigProperty(name = "quarkus.datasource.username")
    String username;

    @ConfigProperty(name = "quarkus.datasource.password")
    String password;
}
