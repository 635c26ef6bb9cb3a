package io.durablebatch.it;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

@QuarkusTest
class LaunchResourceTest {

    @Test
    void aSecondLaunchOfARunningInstanceIsRefusedWithItsCode() {
        Map<String, Object> request = Map.of("job", "it-" + UUID.randomUUID(), "parameters", Map.of("day", "2026-11-30"));
        int instanceId = given().contentType(ContentType.JSON).body(request).post("/launches")
                .then().statusCode(200).body("instanceCreated", equalTo(true)).body("attempt", equalTo(1))
                .extract().path("instanceId");

        given().contentType(ContentType.JSON).body(request).post("/launches")
                .then().statusCode(409).body("error", equalTo("EXECUTION_ACTIVE"));

        given().get("/launches/instances/{id}/executions", instanceId)
                .then().statusCode(200).body("$", hasSize(1)).body("[0].status", equalTo("STARTING"));
    }

    @Test
    void aBadJobNameIsRefusedWithTheFieldName() {
        given().contentType(ContentType.JSON).body(Map.of("job", " ")).post("/launches")
                .then().statusCode(400).body("message", equalTo("jobName must not be blank"));
    }

    @Test
    void theRepositoryIsReady() {
        given().get("/q/health/ready").then().statusCode(200)
                .body("checks.find { it.name == 'Durable Batch job repository' }.status", equalTo("UP"));
    }
}
