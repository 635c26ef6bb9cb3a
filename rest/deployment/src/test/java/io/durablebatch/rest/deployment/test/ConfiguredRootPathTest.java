package io.durablebatch.rest.deployment.test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;

/**
 * With {@code quarkus.durable-batch.rest.root-path=/ops/batch} every endpoint answers there and
 * nowhere under {@code /batch}, the OpenAPI document lists them there, and an execution the API
 * launches is located there.
 */
class ConfiguredRootPathTest {

    private static final String ROOT = "/ops/batch";

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Endpoints.class, RootPathJob.class))
            .overrideConfigKey("quarkus.http.test-port", "0")
            .overrideConfigKey("quarkus.durable-batch.rest.root-path", ROOT)
            .overrideConfigKey("quarkus.http.auth.basic", "true")
            .overrideConfigKey("quarkus.security.users.embedded.enabled", "true")
            .overrideConfigKey("quarkus.security.users.embedded.plain-text", "true")
            .overrideConfigKey("quarkus.security.users.embedded.users.operator", "operator-secret")
            .overrideConfigKey("quarkus.security.users.embedded.roles.operator", "batch-operator");

    @Test
    void everyEndpointAnswersUnderTheConfiguredRootAndNoneUnderTheDefault() {
        List<Endpoints> endpoints = Endpoints.under(ROOT);
        assertFalse(endpoints.isEmpty());
        for (Endpoints endpoint : endpoints) {
            given().contentType("application/json").body("{}")
                    .request(endpoint.httpMethod(), endpoint.concrete(1, "job"))
                    .then().statusCode(401).contentType("application/problem+json")
                    .body("code", equalTo("UNAUTHENTICATED"));
        }
        operator().get(ROOT + "/jobs").then().statusCode(200).body("name", equalTo(List.of(RootPathJob.NAME)));
        for (Endpoints endpoint : Endpoints.all()) {
            operator().contentType("application/json").body("{}")
                    .request(endpoint.httpMethod(), endpoint.concrete(1, "job")).then().statusCode(404);
        }
    }

    @Test
    void aLaunchedExecutionIsLocatedUnderTheConfiguredRoot() {
        ExtractableResponse<Response> started = operator().contentType("application/json")
                .header("Idempotency-Key", "root-" + UUID.randomUUID())
                .body(Map.of("parameters", Map.of("run", UUID.randomUUID().toString())))
                .post(ROOT + "/jobs/{job}/executions", RootPathJob.NAME).then().statusCode(202).extract();
        long id = started.<Integer> path("id");
        String location = URI.create(started.header("Location")).getPath();
        assertEquals(ROOT + "/executions/" + id, location);
        operator().get(location).then().statusCode(200).body("execution.id", equalTo((int) id));
    }

    @Test
    void theOpenApiDocumentListsEveryEndpointUnderTheConfiguredRoot() {
        Map<String, Map<String, Object>> paths = given().queryParam("format", "json").get("/q/openapi").then()
                .statusCode(200).extract().path("paths");
        for (Endpoints endpoint : Endpoints.under(ROOT)) {
            Map<String, Object> path = paths.get(endpoint.path());
            assertTrue(path != null && path.containsKey(endpoint.httpMethod().toLowerCase(Locale.ROOT)),
                    endpoint.httpMethod() + " " + endpoint.path() + " is not in the document: " + paths.keySet());
        }
        assertTrue(paths.keySet().stream().noneMatch(path -> path.startsWith("/batch")), "paths: " + paths.keySet());
    }

    private static io.restassured.specification.RequestSpecification operator() {
        return given().auth().preemptive().basic("operator", "operator-secret");
    }
}
