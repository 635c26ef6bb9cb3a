package io.durablebatch.it;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;

@QuarkusTest
class LaunchResourceTest {

    /**
     * The demo's admin: in tests the password of the test profile, against the packaged application
     * DEMO_PASSWORD, which the build sets for the integration tests as demo.it.password too.
     */
    static RequestSpecification caller() {
        String password = System.getProperty("demo.it.password");
        return password == null ? given().auth().preemptive().basic("admin", "admin-secret")
                : given().auth().preemptive().basic("demo", password);
    }

    @Test
    void aSecondLaunchOfARunningInstanceIsRefusedWithItsCode() {
        Map<String, Object> request = Map.of("job", "it-" + UUID.randomUUID(), "parameters", Map.of("day", "2026-11-30"));
        int instanceId = caller().contentType(ContentType.JSON).body(request).post("/launches")
                .then().statusCode(200).body("instanceCreated", equalTo(true)).body("attempt", equalTo(1))
                .extract().path("instanceId");

        caller().contentType(ContentType.JSON).body(request).post("/launches")
                .then().statusCode(409).body("error", equalTo("EXECUTION_ACTIVE"));

        caller().get("/launches/instances/{id}/executions", instanceId)
                .then().statusCode(200).body("$", hasSize(1)).body("[0].status", equalTo("STARTING"));
    }

    @Test
    void aBadJobNameIsRefusedWithTheFieldName() {
        caller().contentType(ContentType.JSON).body(Map.of("job", " ")).post("/launches")
                .then().statusCode(400).body("message", equalTo("jobName must not be blank"));
    }

    @Test
    void anAnonymousLaunchIsRefused() {
        given().contentType(ContentType.JSON).body(Map.of("job", "anonymous")).post("/launches").then().statusCode(401);
    }

    @Test
    void theRepositoryIsReady() {
        given().get("/q/health/ready").then().statusCode(200)
                .body("checks.find { it.name == 'Durable Batch job repository' }.status", equalTo("UP"));
    }
}
