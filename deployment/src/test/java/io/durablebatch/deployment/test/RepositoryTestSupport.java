package io.durablebatch.deployment.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import org.junit.jupiter.api.function.Executable;

import io.durablebatch.execution.JobInstanceKey;
import io.durablebatch.execution.JobName;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.QuarkusUnitTest;

/** Helpers shared by the repository tests: units of work, fresh keys, refusal assertions. */
public final class RepositoryTestSupport {

    private RepositoryTestSupport() {
    }

    /**
     * The application every repository test starts: the repository, the shared test helpers and
     * {@code extraClasses}, the test's own helpers. It listens on a random HTTP port (as the build
     * also configures), so that test JVMs of builds running side by side on one machine never collide.
     */
    public static QuarkusUnitTest repositoryApp(Class<?>... extraClasses) {
        return new QuarkusUnitTest()
                .withApplicationRoot(jar -> jar
                        .addClasses(RepositoryTestSupport.class, RepositoryFixtures.class, StoredState.class,
                                RepositorySchema.class, LifecycleTable.class, Race.class, InvalidValues.class)
                        .addClasses(extraClasses))
                .overrideConfigKey("quarkus.http.test-port", "0")
                // Tests leave claimed executions behind, whose leases run out: a sweeper would recover
                // them while a later test compares the stored rows. A test of the sweeper turns it on.
                .overrideConfigKey("quarkus.durable-batch.lease.sweeper-enabled", "false");
    }

    /** Runs {@code work} in its own committed unit of work. */
    public static <T> T tx(Supplier<T> work) {
        return QuarkusTransaction.requiringNew().call(work::get);
    }

    public static void txRun(Runnable work) {
        QuarkusTransaction.requiringNew().run(work);
    }

    /** Runs {@code work} in a unit of work that then rolls back. */
    public static void rolledBack(Runnable work) {
        commitIf(() -> {
            work.run();
            return false;
        });
    }

    /** Runs {@code work} in its own unit of work, committed if it returns true and rolled back otherwise. */
    public static boolean commitIf(BooleanSupplier work) {
        try {
            QuarkusTransaction.requiringNew().run(() -> {
                if (!work.getAsBoolean()) {
                    throw new RolledBack();
                }
            });
            return true;
        } catch (RolledBack expected) {
            return false;
        }
    }

    private static final class RolledBack extends RuntimeException {
        private static final long serialVersionUID = 1L;
    }

    /** A key no other test uses, so tests sharing one database never see each other's rows. */
    public static JobInstanceKey freshKey(String job) {
        return JobInstanceKey.of(freshJobName(job), Map.of("run", 1L));
    }

    public static JobName freshJobName(String job) {
        return JobName.of(job + "-" + UUID.randomUUID());
    }

    public static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }

    /**
     * Asserts that {@code call} is refused with {@code error} in its own unit of work, then commits that
     * unit of work anyway. A caller may catch a refusal and carry on, so a refusal must leave nothing
     * behind even in a transaction that commits; the commit also proves the refusal did not poison the
     * transaction. {@link StoredState#assertRefusedChangingNothing} also compares the stored rows.
     */
    public static RepositoryException assertRefused(RepositoryError error, Executable call) {
        RepositoryException refusal = QuarkusTransaction.requiringNew().call(() -> {
            try {
                call.execute();
            } catch (RepositoryException e) {
                return e;
            } catch (Throwable e) {
                throw new AssertionError("expected the refusal " + error + ", got " + e, e);
            }
            return fail("expected the refusal " + error + ", but the call succeeded");
        });
        assertEquals(error, refusal.error(), refusal::getMessage);
        return refusal;
    }

    /** Asserts that {@code failure} or one of its causes has a message containing every fragment. */
    public static void assertCausedBy(Throwable failure, String... fragments) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            String message = String.valueOf(cause.getMessage());
            if (Arrays.stream(fragments).allMatch(message::contains)) {
                return;
            }
        }
        throw new AssertionError("no cause of " + failure + " says " + Arrays.toString(fragments), failure);
    }

    /**
     * Runs {@code sql} statements on the test database with plain JDBC, before the application
     * starts (e.g. from {@link QuarkusUnitTest#setBeforeAllCustomizer}).
     */
    public static void executeBeforeStart(String... statements) {
        try (Connection connection = DriverManager.getConnection(System.getProperty("quarkus.datasource.jdbc.url"),
                System.getProperty("quarkus.datasource.username"), System.getProperty("quarkus.datasource.password"));
                Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Drops every table whose name starts with {@code prefix}, so that a test starts from no schema. */
    public static void dropTablesWithPrefix(String prefix) {
        executeBeforeStart("DO $$ DECLARE t text; BEGIN FOR t IN SELECT tablename FROM pg_tables "
                + "WHERE schemaname = current_schema() AND starts_with(tablename, '" + prefix + "') LOOP "
                + "EXECUTE format('DROP TABLE %I CASCADE', t); END LOOP; END $$");
    }

    /**
     * Runs {@code call} (inside the caller's unit of work) and asserts that it issued exactly
     * {@code expected} SQL statements: the cost of the repository's hot paths is part of its contract.
     */
    public static <T> T assertStatements(MetadataSql sql, long expected, Supplier<T> call) {
        long before = sql.statementsExecutedOnThisThread();
        T result = call.get();
        assertEquals(expected, sql.statementsExecutedOnThisThread() - before, "SQL statements issued");
        return result;
    }
}
