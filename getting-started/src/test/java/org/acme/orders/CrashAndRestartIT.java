package org.acme.orders;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Writer;
import java.net.ServerSocket;
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
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;

/**
 * The crash of the getting-started page, for real: the packaged application imports a file in a
 * child JVM, is killed with SIGKILL in the middle, and the next process of the application recovers
 * the import once its lease ran out and restarts it by itself ({@code restartOnOwnerLoss}). Nobody
 * looks for the orphan; the table ends with every order exactly once.
 */
class CrashAndRestartIT {

    private static final Path APPLICATION = Path.of("target/quarkus-app/quarkus-run.jar");
    private static final int ORDERS = 100_000;
    // The packaged application runs in prod mode: on a database of its own, made afresh on the
    // PostgreSQL of the tests (127.0.0.1:5432 unless test.db.server says otherwise).
    private static final String SERVER = System.getProperty("test.db.server", "jdbc:postgresql://127.0.0.1:5432/");
    private static final String DATABASE = "getting_started_crash";
    private static final String DB_URL = SERVER + DATABASE;
    private static final String DB_USER = System.getProperty("test.db.username", "postgres");
    private static final String DB_PASSWORD = System.getProperty("test.db.password", "postgres");

    @BeforeAll
    static void freshDatabase() throws SQLException {
        try (Connection connection = DriverManager.getConnection(SERVER + "postgres", DB_USER, DB_PASSWORD);
                Statement statement = connection.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS " + DATABASE + " WITH (FORCE)");
            statement.execute("CREATE DATABASE " + DATABASE);
        }
    }

    @Test
    void aKilledImportIsRestartedByTheNextProcessAndImportsEveryOrderOnce() throws Exception {
        Path file = Files.createTempFile("orders-", ".csv");
        try (Writer csv = Files.newBufferedWriter(file)) {
            csv.write("id,customer,amount\n");
            for (int id = 1; id <= ORDERS; id++) {
                csv.write(id + ",customer-" + id % 100 + "," + id % 1000 + ".25\n");
            }
        }

        long id;
        // the watching connection is opened first: on a quiet machine the whole import takes about a
        // second, less than this JVM's first connection may take to open
        try (Application first = Application.start("first");
                Connection connection = DriverManager.getConnection(DB_URL, DB_USER, DB_PASSWORD)) {
            count(connection, "SELECT count(*) FROM orders");
            id = given().baseUri(first.uri()).contentType(ContentType.JSON)
                    .body("{\"file\": \"" + file.toAbsolutePath() + "\"}")
                    .when().post("/imports")
                    .then().statusCode(202)
                    .extract().jsonPath().getLong("executionId");
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (count(connection, "SELECT count(*) FROM orders") < 5_000 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            first.kill();
        }
        long committed = count("SELECT count(*) FROM orders");
        assertTrue(committed >= 5_000 && committed < ORDERS, "killed in the middle of the import: " + committed + " rows");
        assertEquals(0, committed % 1_000, "only whole chunks are committed: " + committed + " rows");

        try (Application second = Application.start("second")) {
            JsonPath status = null;
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (System.nanoTime() < deadline) {
                status = given().baseUri(second.uri()).when().get("/imports/" + id)
                        .then().statusCode(200).extract().jsonPath();
                if (status.getString("status").equals("COMPLETED")) {
                    break;
                }
                Thread.sleep(250);
            }
            assertEquals("COMPLETED", status.getString("status"), () -> "not restarted: " + second.log());
            // the killed attempt was recovered as FAILED, and this process restarted it
            assertEquals(List.of("FAILED", "COMPLETED"), status.getList("attempts.status"));
            assertEquals(List.of("FAILED", "COMPLETED"), status.getList("attempts.exitCode"));
            assertTrue(second.log().contains("execution " + id + " lost its owner: restarted automatically"),
                    second::log);
        }
        assertEquals(ORDERS, count("SELECT count(*) FROM orders"));
        assertEquals((long) ORDERS * (ORDERS + 1) / 2, count("SELECT sum(id) FROM orders"));
        Files.delete(file);
    }

    /** The packaged application in a child JVM, with a 3 s lease and a sweep every second. */
    private record Application(Process process, int port, Path logFile) implements AutoCloseable {

        static Application start(String name) throws Exception {
            if (!Files.exists(APPLICATION)) {
                throw new IllegalStateException(APPLICATION + " is missing: the IT runs after the package phase");
            }
            int port;
            try (ServerSocket socket = new ServerSocket(0)) {
                port = socket.getLocalPort();
            }
            Path log = Path.of("target", "crash-and-restart", name + ".log");
            Files.createDirectories(log.getParent());
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Dquarkus.http.port=" + port,
                    "-Dquarkus.durable-batch.lease.duration=3s",
                    "-Dquarkus.durable-batch.lease.sweep-interval=1s",
                    "-jar", APPLICATION.toString()));
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            builder.environment().putAll(Map.of("DB_URL", DB_URL, "DB_USER", DB_USER, "DB_PASSWORD", DB_PASSWORD));
            Application application = new Application(builder.start(), port, log);
            try {
                application.awaitReady();
            } catch (Exception | Error e) {
                application.kill();
                throw e;
            }
            return application;
        }

        String uri() {
            return "http://127.0.0.1:" + port;
        }

        private void awaitReady() throws Exception {
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (System.nanoTime() < deadline) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("the application died at startup:\n" + log());
                }
                try {
                    given().baseUri(uri()).when().get("/imports/" + Long.MAX_VALUE).then().statusCode(404);
                    return;
                } catch (Exception | AssertionError notListeningYet) {
                    Thread.sleep(200);
                }
            }
            throw new IllegalStateException("the application did not start:\n" + log());
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

    private static long count(String sql) throws SQLException {
        try (Connection connection = DriverManager.getConnection(DB_URL, DB_USER, DB_PASSWORD)) {
            return count(connection, sql);
        }
    }

    private static long count(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet row = statement.executeQuery(sql)) {
            row.next();
            return row.getLong(1);
        }
    }
}
