package io.durablebatch.deployment.test.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.SQLException;

import jakarta.inject.Inject;

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
        assertEquals(IdleInTransactionTimeouts.ofServer(), IdleInTransactionTimeouts.of(dataSource));
    }
}
