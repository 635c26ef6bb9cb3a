package io.durablebatch.it.rest;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

/**
 * The generated OpenAPI document lists every endpoint of the REST API (read from the resource by
 * reflection, so a new one cannot be missing), each with its summary, the roles it allows, and its
 * problem responses as application/problem+json.
 */
@QuarkusTest
class OpenApiDocumentTest {

    @Test
    void everyEndpointIsInTheOpenApiDocumentWithItsRolesAndProblems() {
        Map<String, Map<String, Map<String, Object>>> paths = given().queryParam("format", "json").get("/q/openapi")
                .then().statusCode(200).extract().path("paths");
        for (Rest.Endpoint endpoint : Rest.endpoints()) {
            Map<String, Map<String, Object>> path = paths.get(endpoint.path());
            assertNotNull(path, endpoint.path() + " is not in the document: " + paths.keySet());
            Map<String, Object> operation = path.get(endpoint.httpMethod().toLowerCase(Locale.ROOT));
            assertNotNull(operation, endpoint.httpMethod() + " " + endpoint.path());
            assertNotNull(operation.get("summary"), endpoint.path());
            String description = String.valueOf(operation.get("description"));
            assertTrue(description.startsWith("Roles: "), endpoint.path() + ": " + description);
            String responses = String.valueOf(operation.get("responses"));
            assertTrue(responses.contains("401") && responses.contains("403"), endpoint.path() + ": " + responses);
            if (!endpoint.path().startsWith("/batch/audit") && !endpoint.path().equals("/batch/holds")
                    && !endpoint.path().equals("/batch/jobs")) {
                assertTrue(responses.contains("application/problem+json"), endpoint.path() + ": " + responses);
            }
        }
    }
}
