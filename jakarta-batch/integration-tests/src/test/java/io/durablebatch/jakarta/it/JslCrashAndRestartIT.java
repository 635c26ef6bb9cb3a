package io.durablebatch.jakarta.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A job written in JSL survives SIGKILL like a native one: the packaged application runs the
 * {@code numbers} chunk job in a child JVM and is killed in the middle of it; the next process
 * recovers the execution once its lease ran out, restarts it once by itself from the last
 * checkpoint (the reader's {@code checkpointInfo}), and the table ends with every number exactly
 * once.
 */
class JslCrashAndRestartIT {

    private static final Path APPLICATION = Path.of("target/quarkus-app/quarkus-run.jar");
    private static final long NUMBERS = 200_000;
    // The application runs in prod mode on a database of its own, made afresh on the tests' server.
    private static final String TEST_DB = System.getProperty("it.db.url", "jdbc:postgresql://127.0.0.1:5432/test");
    private static final String SERVER = TEST_DB.substring(0, TEST_DB.lastIndexOf('/') + 1);
    private static final String DATABASE = "jakarta_crash";
    private static final String DB_URL = SERVER + DATABASE;
    private static final String DB_USER = System.getProperty("it.db.username", "postgres");
    private static final String DB_PASSWORD = System.getProperty("it.db.password", "postgres");

    @BeforeEach
    void freshDatabase() throws SQLException {
        try (Connection connection = DriverManager.getConnection(SERVER + "postgres", DB_USER, DB_PASSWORD);
                Statement statement = connection.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS " + DATABASE + " WITH (FORCE)");
            statement.execute("CREATE DATABASE " + DATABASE);
        }
    }

    @Test
    void aKilledJslJobIsRestartedOnceByTheNextProcessAndWritesEveryNumberOnce() throws Exception {
        long committed;
        try (Connection connection = DriverManager.getConnection(DB_URL, DB_USER, DB_PASSWORD);
                Application first = Application.start("first", "-Dnumbers.count=" + NUMBERS)) {
            await(Duration.ofSeconds(60), () -> first.log().contains("started execution"), first::log);
            await(Duration.ofSeconds(60), () -> count(connection, "SELECT count(*) FROM numbers") >= 10_000, first::log);
            first.kill();
            committed = count(connection, "SELECT count(*) FROM numbers");
        }
        assertTrue(committed >= 10_000 && committed < NUMBERS, "killed in the middle of the job: " + committed + " rows");
        assertEquals(0, committed % 1_000, "only whole chunks are committed: " + committed + " rows");

        try (Connection connection = DriverManager.getConnection(DB_URL, DB_USER, DB_PASSWORD);
                Application second = Application.start("second")) {
            await(Duration.ofSeconds(90), () -> statuses(connection).equals(List.of("FAILED", "COMPLETED")),
                    () -> statuses(connection) + "\n" + second.log());
            assertTrue(second.log().contains("lost its owner: restarted automatically"), second::log);
            // the restart began at the last checkpoint: it read only what the killed attempt had not committed
            assertEquals(NUMBERS - committed, count(connection, """
                    SELECT s.read_count FROM dbatch_step_execution s
                    JOIN dbatch_job_execution e ON e.id = s.job_execution_id
                    WHERE e.attempt = 2"""));
            assertEquals(NUMBERS, count(connection, "SELECT count(*) FROM numbers"));
            assertEquals(NUMBERS, count(connection, "SELECT count(DISTINCT n) FROM numbers"));
            assertEquals(NUMBERS * (NUMBERS + 1) / 2, count(connection, "SELECT sum(n) FROM numbers"));
        }
    }

    /**
     * Without the owner-loss restart, another process restarts the killed execution with the Jakarta
     * {@code JobOperator.restart}, which it asks every half second: refused while the owner lives,
     * naming the owner's lease and when it runs out; accepted once the owner was killed, its lease ran
     * out and the sweeper recovered the execution (FAILED); resumed from the last checkpoint.
     */
    @Test
    void aKilledJslJobIsRestartedByJobOperatorRestartOnceItsLeaseRanOut() throws Exception {
        long committed;
        long killed;
        try (Connection connection = DriverManager.getConnection(DB_URL, DB_USER, DB_PASSWORD);
                Application restarter = Application.start("manual-restarter", "-Dnumbers.restart-latest=true",
                        "-Dquarkus.durable-batch.lease.restart-on-owner-loss=0")) {
            // the restarter is up before the job starts, so that it meets the owner alive
            await(Duration.ofSeconds(90), () -> restarter.log().contains("Profile prod activated"), restarter::log);
            try (Application owner = Application.start("manual-owner", "-Dnumbers.count=" + NUMBERS,
                    "-Dquarkus.durable-batch.lease.restart-on-owner-loss=0")) {
                await(Duration.ofSeconds(90), () -> owner.log().contains("started execution"), owner::log);
                Matcher started = Pattern.compile("started execution (\\d+) of job numbers").matcher(owner.log());
                assertTrue(started.find(), owner::log);
                killed = Long.parseLong(started.group(1));
                // a restart refused while the owner is alive, as the Jakarta operator words it
                Pattern liveLease = Pattern.compile("restart refused: execution " + killed + " cannot be restarted: "
                        + "EXECUTION_ACTIVE: .* is STARTED: its owner \\S+ holds its lease until \\S+ on the "
                        + "database clock \\(in \\d+ s\\)");
                await(Duration.ofSeconds(60), () -> liveLease.matcher(restarter.log()).find(), restarter::log);
                await(Duration.ofSeconds(60), () -> count(connection, "SELECT count(*) FROM numbers") >= 10_000,
                        owner::log);
                owner.kill();
                committed = count(connection, "SELECT count(*) FROM numbers");
            }
            assertTrue(committed >= 10_000 && committed < NUMBERS,
                    "killed in the middle of the job: " + committed + " rows");

            await(Duration.ofSeconds(120), () -> statuses(connection).equals(List.of("FAILED", "COMPLETED")),
                    () -> statuses(connection) + "\n" + restarter.log());
            String log = restarter.log();
            assertTrue(log.contains("restarted execution " + killed + " as execution "), log);
            assertFalse(log.contains("lost its owner: restarted automatically"), log);
            assertEquals(NUMBERS - committed, count(connection, """
                    SELECT s.read_count FROM dbatch_step_execution s
                    JOIN dbatch_job_execution e ON e.id = s.job_execution_id
                    WHERE e.attempt = 2"""));
            assertEquals(NUMBERS, count(connection, "SELECT count(DISTINCT n) FROM numbers"));
            assertEquals(NUMBERS, count(connection, "SELECT count(*) FROM numbers"));
        }
    }

    /** The attempts' statuses in order, of the one instance the first process started. */
    private static List<String> statuses(Connection connection) {
        List<String> statuses = new ArrayList<>();
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT status FROM dbatch_job_execution ORDER BY attempt")) {
            while (rows.next()) {
                statuses.add(rows.getString(1));
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return statuses;
    }

    private static long count(Connection connection, String sql) {
        try (Statement statement = connection.createStatement(); ResultSet row = statement.executeQuery(sql)) {
            row.next();
            return row.getLong(1);
        } catch (SQLException e) {
            // the application creates the table at startup
            return -1;
        }
    }

    private static void await(Duration timeout, BooleanSupplier condition, Supplier<String> why)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + timeout + ":\n" + why.get());
            }
            Thread.sleep(5);
        }
    }

    /** The packaged application in a child JVM, with a 3 s lease and a sweep every second. */
    private record Application(Process process, Path logFile) implements AutoCloseable {

        static Application start(String name, String... properties) throws IOException {
            if (!Files.exists(APPLICATION)) {
                throw new IllegalStateException(APPLICATION + " is missing: the IT runs after the package phase");
            }
            Path log = Path.of("target", "jsl-crash-and-restart", name + ".log");
            Files.createDirectories(log.getParent());
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Dquarkus.durable-batch.lease.duration=3s", "-Dquarkus.durable-batch.lease.sweep-interval=1s"));
            command.addAll(List.of(properties));
            command.addAll(List.of("-jar", APPLICATION.toString()));
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            builder.environment().put("DB_URL", DB_URL);
            builder.environment().put("DB_USER", DB_USER);
            builder.environment().put("DB_PASSWORD", DB_PASSWORD);
            return new Application(builder.start(), log);
        }

        /** SIGKILL: the process dies at once, in the middle of its chunk. */
        void kill() throws InterruptedException {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }

        String log() {
            try {
                return Files.readString(logFile);
            } catch (IOException e) {
                return "(no log: " + e + ")";
            }
        }

        @Override
        public void close() throws InterruptedException {
            if (process.isAlive()) {
                process.destroy();
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    kill();
                }
            }
        }
    }
}
