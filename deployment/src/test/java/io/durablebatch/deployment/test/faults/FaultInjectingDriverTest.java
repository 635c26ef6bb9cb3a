package io.durablebatch.deployment.test.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.deployment.test.faults.FaultInjectingDriver.Kind;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The fault injector itself, through the application's datasource: Agroal accepts it as the JDBC
 * driver, it counts only repository statements of the kernel (or of a {@code launching} caller),
 * and each kind of fault does what it says to a JTA transaction.
 */
class FaultInjectingDriverTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, FaultInjectingDriver.class))
            .overrideConfigKey("quarkus.datasource.jdbc.driver", FaultInjectingDriver.class.getName());

    /** Named like a repository table, so that its statements count; not one of the repository's. */
    private static final String PROBE = "fault_probe_dbatch_";

    @Inject
    AgroalDataSource dataSource;

    @BeforeEach
    void createProbe() throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS " + PROBE + " (id varchar(64) PRIMARY KEY)");
        }
    }

    @Test
    void theDatasourceConnectsThroughTheInjector() throws SQLException {
        FaultInjectingDriver.record();
        insertInLaunchingTransaction(UUID.randomUUID().toString());
        assertEquals(List.of("INSERT INTO " + PROBE + " (id) VALUES (?)"), FaultInjectingDriver.counted());
    }

    @Test
    void statementsOutsideTheKernelAreNeitherCountedNorFaulted() throws SQLException {
        FaultInjectingDriver.arm(1, Kind.BEFORE);
        String id = UUID.randomUUID().toString();
        QuarkusTransaction.requiringNew().run(() -> insert(id));
        assertEquals(List.of(), FaultInjectingDriver.counted());
        assertTrue(FaultInjectingDriver.fired().isEmpty());
        assertTrue(stored(id));
    }

    @Test
    void beforeBreaksTheConnectionWithoutExecutingTheStatement() throws SQLException {
        String id = UUID.randomUUID().toString();
        FaultInjectingDriver.arm(1, Kind.BEFORE);
        RuntimeException failure = assertThrows(RuntimeException.class, () -> insertInLaunchingTransaction(id));
        RepositoryTestSupport.assertCausedBy(failure, "injected fault", "before the statement");
        assertEquals(Kind.BEFORE, FaultInjectingDriver.fired().orElseThrow().kind());
        assertTrue(!stored(id));
        assertPoolHealthy();
    }

    @Test
    void afterExecutesTheStatementThenBreaksTheConnectionSoItsTransactionRollsBack() throws SQLException {
        String id = UUID.randomUUID().toString();
        FaultInjectingDriver.arm(1, Kind.AFTER);
        RuntimeException failure = assertThrows(RuntimeException.class, () -> insertInLaunchingTransaction(id));
        RepositoryTestSupport.assertCausedBy(failure, "injected fault", "after the statement");
        assertTrue(!stored(id));
        assertPoolHealthy();
    }

    @Test
    void commitLostCommitsButReportsAFailure() throws SQLException {
        String id = UUID.randomUUID().toString();
        FaultInjectingDriver.arm(1, Kind.COMMIT_LOST);
        assertThrows(RuntimeException.class, () -> insertInLaunchingTransaction(id));
        assertEquals(Kind.COMMIT_LOST, FaultInjectingDriver.fired().orElseThrow().kind());
        assertTrue(stored(id), "the transaction committed although its commit failed");
        assertPoolHealthy();
    }

    @Test
    void aLostCommitArmedInATransactionThatRollsBackNeverFires() throws Exception {
        String id = UUID.randomUUID().toString();
        FaultInjectingDriver.arm(1, Kind.COMMIT_LOST);
        FaultInjectingDriver.launching(() -> {
            RepositoryTestSupport.rolledBack(() -> insert(id));
            return null;
        });
        assertEquals(1, FaultInjectingDriver.counted().size());
        assertTrue(FaultInjectingDriver.fired().isEmpty(), "no commit, no lost acknowledgement");
        assertTrue(!stored(id));
        assertPoolHealthy();
        assertTrue(FaultInjectingDriver.fired().isEmpty(), "the next commit of the connection is not the one armed");
    }

    @Test
    void onlyTheArmedOrdinalIsFaulted() throws SQLException {
        String first = UUID.randomUUID().toString();
        String second = UUID.randomUUID().toString();
        FaultInjectingDriver.arm(2, Kind.BEFORE);
        insertInLaunchingTransaction(first);
        assertThrows(RuntimeException.class, () -> insertInLaunchingTransaction(second));
        assertTrue(stored(first));
        assertTrue(!stored(second));
        assertEquals(2, FaultInjectingDriver.fired().orElseThrow().ordinal());
    }

    /** After a fault the pool hands out working connections: the broken one was destroyed. */
    private void assertPoolHealthy() throws SQLException {
        for (int i = 0; i < 5; i++) {
            String id = UUID.randomUUID().toString();
            QuarkusTransaction.requiringNew().run(() -> insert(id));
            assertTrue(stored(id));
        }
    }

    private void insertInLaunchingTransaction(String id) {
        try {
            FaultInjectingDriver.launching(() -> {
                QuarkusTransaction.requiringNew().run(() -> insert(id));
                return null;
            });
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private void insert(String id) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert = connection.prepareStatement("INSERT INTO " + PROBE + " (id) VALUES (?)")) {
            insert.setString(1, id);
            insert.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private boolean stored(String id) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement("SELECT 1 FROM " + PROBE + " WHERE id = ?")) {
            select.setString(1, id);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next();
            }
        }
    }
}
