package org.acme.orders;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.operator.JobOperator;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

@QuarkusTest
class ImportResourceTest {

    @Inject
    JobOperator operator;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void importsEveryOrderOfTheFileOnce() throws Exception {
        execute("DELETE FROM orders");
        Path file = Files.createTempFile("orders-", ".csv");
        StringBuilder csv = new StringBuilder("id,customer,amount\n");
        for (int id = 1; id <= 2_500; id++) {
            csv.append(id).append(",customer-").append(id % 7).append(",").append(id).append(".50\n");
            if (id == 1_234) {
                csv.append("not-a-number,customer-x,1.00\n"); // skipped: the job allows ten such lines
            }
        }
        Files.writeString(file, csv);
        String request = "{\"file\": \"" + file.toAbsolutePath() + "\"}";

        var launched = given().contentType(ContentType.JSON).body(request)
                .when().post("/imports")
                .then().statusCode(202)
                .extract();
        long id = launched.jsonPath().getLong("executionId");
        assertTrue(launched.header("Location").endsWith("/imports/" + id), launched.header("Location"));
        JobExecution ended = operator.await(JobExecutionId.of(id), Duration.ofSeconds(30));

        assertEquals(ExecutionStatus.COMPLETED, ended.status());
        assertEquals(2_500, count("SELECT count(*) FROM orders"));
        assertEquals(2_500 * 2_501 / 2, count("SELECT sum(id) FROM orders"));
        given().when().get("/imports/" + id)
                .then().statusCode(200)
                .body("status", equalTo("COMPLETED"))
                .body("attempts.size()", equalTo(1));
        // the job instance is the job and its file: it ran, and runs only once
        given().contentType(ContentType.JSON).body(request)
                .when().post("/imports")
                .then().statusCode(409)
                .body(containsString("INSTANCE_COMPLETE"));
        Files.delete(file);
    }

    @Test
    void anUnknownImportIsNotFound() {
        given().when().get("/imports/" + Long.MAX_VALUE).then().statusCode(404);
    }

    private void execute(String sql) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private long count(String sql) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(sql)) {
            row.next();
            return row.getLong(1);
        }
    }
}
