package io.durablebatch.deployment.test.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A session of the repository's datasource left idle inside a transaction, as a frozen owner leaves
 * its half-done chunk, is ended by PostgreSQL after
 * {@code quarkus.durable-batch.statements.idle-in-transaction-timeout}: its row locks are released
 * for the node that recovers the execution, and the frozen transaction can commit nothing.
 */
class FrozenSessionTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RepositoryTestSupport.repositoryApp(IdleInTransactionTimeouts.class)
            .overrideConfigKey("quarkus.durable-batch.statements.idle-in-transaction-timeout", "1s");

    @Inject
    AgroalDataSource dataSource;

    @Test
    void everySessionCarriesTheTimeout() throws SQLException {
        assertEquals("1s", IdleInTransactionTimeouts.of(dataSource));
    }

    @Test
    void theServerEndsAFrozenTransactionAndReleasesItsLocks() throws Exception {
        try (Connection setup = dataSource.getConnection(); Statement statement = setup.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS frozen_session_row (id int PRIMARY KEY, v int)");
            statement.execute("INSERT INTO frozen_session_row VALUES (1, 0) ON CONFLICT (id) DO UPDATE SET v = 0");
        }
        try (Connection frozen = dataSource.getConnection(); Connection peer = dataSource.getConnection()) {
            frozen.setAutoCommit(false);
            try (Statement statement = frozen.createStatement()) {
                statement.executeUpdate("UPDATE frozen_session_row SET v = 1 WHERE id = 1");
            }
            Thread.sleep(2_500);

            try (Statement statement = peer.createStatement()) {
                statement.setQueryTimeout(5);
                assertEquals(1, statement.executeUpdate("UPDATE frozen_session_row SET v = 2 WHERE id = 1"),
                        "the peer takes the row the frozen session had locked");
            }
            assertThrows(SQLException.class, frozen::commit, "the frozen transaction can commit nothing");
        }
        try (Connection check = dataSource.getConnection();
                Statement statement = check.createStatement();
                ResultSet row = statement.executeQuery("SELECT v FROM frozen_session_row WHERE id = 1")) {
            row.next();
            assertEquals(2, row.getInt(1));
        }
    }
}
