package org.acme.orders;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.execution.ExecutionFailure;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.operator.JobOperator;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

/**
 * What the getting-started application answers when something is wrong: a request that names no
 * file, an import that does not exist, a file that cannot be imported twice, and the failures a
 * user reads in {@code GET /imports/{id}}: a duplicate key refused by the page's own writer, a
 * file that does not exist.
 */
@QuarkusTest
class ImportErrorsTest {

    @Inject
    JobOperator operator;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void aRequestThatNamesNoFileIsABadRequestNamingTheParameter() {
        for (String body : new String[] { "{}", "{\"file\": \"\"}", "{\"file\": null}" }) {
            given().contentType(ContentType.JSON).body(body)
                    .when().post("/imports")
                    .then().statusCode(400)
                    .body(containsString("\"file\""));
        }
        given().contentType(ContentType.JSON)
                .when().post("/imports")
                .then().statusCode(400)
                .body(containsString("\"file\""));
    }

    @Test
    void anImportOfNoIdIsNotFound() {
        for (String id : new String[] { "0", "-1", String.valueOf(Long.MAX_VALUE) }) {
            given().when().get("/imports/" + id)
                    .then().statusCode(404)
                    .body(containsString("no import " + id));
        }
    }

    @Test
    void aRefusalSaysItsCodeOnceAndNamesTheExecutionAndItsAttempt() throws Exception {
        Path file = orders("id,customer,amount\n900001,ada,1.00\n900002,bob,2.00\n");
        long id = launch(file);
        assertEquals(ExecutionStatus.COMPLETED, operator.await(JobExecutionId.of(id), Duration.ofSeconds(30)).status());

        given().contentType(ContentType.JSON).body(request(file))
                .when().post("/imports")
                .then().statusCode(409)
                .body(startsWith("INSTANCE_COMPLETE: "))
                .body(not(containsString("INSTANCE_COMPLETE: INSTANCE_COMPLETE")))
                .body(containsString("execution " + id + " (attempt 1) is COMPLETED"));
        Files.delete(file);
    }

    @Test
    void aDuplicateKeyIsRecordedWithItsSqlStateAndCauseFirstAndTheStatementBounded() throws Exception {
        execute("DELETE FROM orders");
        execute("INSERT INTO orders (id, customer, amount) VALUES (7, 'already-there', 1.00)");
        StringBuilder csv = new StringBuilder("id,customer,amount\n");
        for (int order = 1; order <= 1_000; order++) {
            csv.append(order).append(",customer-").append(order).append(",").append(order).append(".50\n");
        }
        Path file = orders(csv.toString());
        long id = launch(file);
        JobExecution ended = operator.await(JobExecutionId.of(id), Duration.ofSeconds(30));
        assertEquals(ExecutionStatus.FAILED, ended.status());

        // the reason first, whole; then the driver's report, which quotes the whole batch, bounded
        String failure = ended.failure().map(ExecutionFailure::message).orElseThrow();
        assertTrue(failure.startsWith("SQL state 23505: ERROR: duplicate key value violates unique constraint \"orders_pkey\""),
                failure);
        assertTrue(failure.contains("Key (id)=(7) already exists."), failure);
        assertTrue(failure.contains("; reported as: Batch entry 0 INSERT INTO orders"), failure);
        assertTrue(failure.length() < 2_000, "bounded: " + failure.length() + " characters");
        assertEquals("java.sql.BatchUpdateException", ended.failure().orElseThrow().type());
        given().when().get("/imports/" + id)
                .then().statusCode(200)
                .body("status", equalTo("FAILED"))
                .body("attempts[0].failure", startsWith("SQL state 23505: "));
        execute("DELETE FROM orders");
        Files.delete(file);
    }

    @Test
    void aMissingFileIsRecordedNamingItsException() throws Exception {
        Path file = Files.createTempFile("orders-", ".csv");
        Files.delete(file);
        long id = launch(file);
        JobExecution ended = operator.await(JobExecutionId.of(id), Duration.ofSeconds(30));
        assertEquals(ExecutionStatus.FAILED, ended.status());
        given().when().get("/imports/" + id)
                .then().statusCode(200)
                .body("attempts[0].failure", equalTo("java.nio.file.NoSuchFileException: " + file));
    }

    private long launch(Path file) {
        return given().contentType(ContentType.JSON).body(request(file))
                .when().post("/imports")
                .then().statusCode(202)
                .extract().jsonPath().getLong("executionId");
    }

    private static String request(Path file) {
        return "{\"file\": \"" + file.toAbsolutePath() + "\"}";
    }

    private static Path orders(String csv) throws Exception {
        Path file = Files.createTempFile("orders-", ".csv");
        Files.writeString(file, csv);
        return file;
    }

    private void execute(String sql) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
