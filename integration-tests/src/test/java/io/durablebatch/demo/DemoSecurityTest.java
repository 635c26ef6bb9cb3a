package io.durablebatch.demo;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;

/**
 * The demo's own endpoints are secured like the operator REST API: anonymous callers get 401, users
 * without the role 403 (reads for viewers, launches, stops and restarts for operators, recoveries and
 * abandons for admins), and the audit names the authenticated caller, not a name the body gives.
 */
@QuarkusTest
class DemoSecurityTest {

    @Test
    void everyDemoEndpointNeedsTheRoleOfItsKind() {
        Map<String, Object> launch = Map.of("parameters", Map.of("run", "denied", "mode", "done"));
        for (String path : List.of("/jobs/restProbe/start", "/jobs/restProbe/run", "/jobs/executions/1/stop",
                "/jobs/executions/1/restart", "/jobs/executions/1/abandon", "/jobs/executions/1/recover", "/launches")) {
            given().contentType(ContentType.JSON).body(launch).post(path).then().statusCode(401);
            as("outsider").contentType(ContentType.JSON).body(launch).post(path).then().statusCode(403);
            as("viewer").contentType(ContentType.JSON).body(launch).post(path).then().statusCode(403);
        }
        for (String path : List.of("/jobs/executions/1/abandon", "/jobs/executions/1/recover")) {
            as("operator").contentType(ContentType.JSON).body(Map.of()).post(path).then().statusCode(403);
        }
        given().get("/jobs/executions/1").then().statusCode(401);
        given().get("/launches/instances/1/executions").then().statusCode(401);
        as("outsider").get("/jobs/executions/1").then().statusCode(403);
    }

    @Test
    void theAuditNamesTheAuthenticatedCallerNotTheBodysActor() {
        String run = UUID.randomUUID().toString();
        long execution = as("operator").contentType(ContentType.JSON)
                .body(Map.of("parameters", Map.of("run", run, "mode", "done"), "actor", "admin"))
                .post("/jobs/restProbe/run").then().statusCode(200).body("status", equalTo("COMPLETED")).extract()
                .jsonPath().getLong("id");
        long instance = as("viewer").get("/jobs/executions/{id}", execution).then().statusCode(200).extract().jsonPath()
                .getLong("instanceId");
        List<String> actors = as("viewer").get("/batch/audit/operator?instance={id}", instance).then().statusCode(200)
                .extract().jsonPath().getList("items.actor");
        assertEquals(List.of("operator"), actors);
    }

    private static RequestSpecification as(String user) {
        return given().auth().preemptive().basic(user, user + "-secret");
    }
}
