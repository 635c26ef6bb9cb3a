package io.durablebatch.it.rest;

import static io.durablebatch.it.rest.Rest.ADMIN;
import static io.durablebatch.it.rest.Rest.OPERATOR;
import static io.durablebatch.it.rest.Rest.VIEWER;
import static io.durablebatch.it.rest.Rest.as;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.execution.JobInstanceKey;
import io.durablebatch.execution.JobName;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.JobRepository;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;

/**
 * Every error on the API's paths is a problem document with a correlation id, including those the
 * frameworks answer before an endpoint runs (a wrong password, a path no endpoint has, another
 * method, an Accept or Content-Type the endpoint cannot serve, a body over the limit); filters the
 * database cannot compare and null purge candidates are refused as values; no URL the API writes
 * comes from the request's Host.
 */
@QuarkusTest
class RestProblemsTest {

    private static final String PROBLEM = "application/problem+json";
    private static final String UUID_PATTERN = "[0-9a-f-]{36}";

    @Inject
    AgroalDataSource dataSource;

    @Inject
    JobRepository repository;

    @Test
    void aWrongPasswordIsAn401ProblemWithTheChallenge() {
        problem(given().auth().preemptive().basic(ADMIN, "not-the-password").get("/batch/jobs").then(), 401,
                "UNAUTHENTICATED").header("WWW-Authenticate", startsWith("basic"));
        problem(given().auth().preemptive().basic("nobody", "nothing").post("/batch/purge").then(), 401,
                "UNAUTHENTICATED");
    }

    @Test
    void aPathAnHttpPermissionClosesIsA403Problem() {
        problem(as(ADMIN).get("/batch/closed-by-permission").then(), 403, "FORBIDDEN");
    }

    @Test
    void thePathsNoEndpointHasAre404Problems() {
        problem(as(VIEWER).get("/batch/no/such/thing").then(), 404, "NOT_FOUND").body("instance",
                equalTo("/batch/no/such/thing"));
        problem(as(VIEWER).get("/batch").then(), 404, "NOT_FOUND");
        problem(as(VIEWER).get("/batch/executions/not-a-number").then(), 404, "NOT_FOUND");
        // the application's own paths are answered as before
        as(VIEWER).get("/no-such-application-path").then().statusCode(404).contentType(not(startsWith(PROBLEM)));
    }

    @Test
    void anotherMethodAnAcceptOrAContentTypeTheEndpointCannotServeAreProblems() {
        problem(as(VIEWER).delete("/batch/jobs").then(), 405, "METHOD_NOT_ALLOWED");
        problem(as(VIEWER).accept("text/csv").get("/batch/jobs").then(), 406, "NOT_ACCEPTABLE");
        problem(as(ADMIN).contentType("text/plain").body("candidates").post("/batch/purge").then(), 415,
                "MEDIA_TYPE_UNSUPPORTED");
    }

    @Test
    void aBodyOverTheLimitIsA413Problem() throws Exception {
        Map<String, Long> before = Rest.rowCounts(dataSource);
        // the declared length is refused before the body is read: the answer comes at once
        String answer = raw("POST /batch/purge HTTP/1.1\r\nHost: localhost\r\nAuthorization: Basic " + basic(ADMIN)
                + "\r\nContent-Type: application/json\r\nContent-Length: 104857600\r\nConnection: close\r\n\r\n{");
        assertTrue(answer.startsWith("HTTP/1.1 413"), answer);
        assertTrue(answer.contains("application/problem+json") && answer.contains("\"code\":\"BODY_TOO_LARGE\"")
                && answer.contains("\"correlationId\""), answer);
        assertEquals(before, Rest.rowCounts(dataSource));
    }

    @Test
    void datesPostgreSqlCannotHoldAreRefusedAsValuesNamingTheFilter() {
        for (String date : List.of("+300000-01-01T00:00:00Z", "-300000-01-01T00:00:00Z", "+1000000000-12-31T23:59:59Z")) {
            problem(as(VIEWER).queryParam("createdFrom", date).get("/batch/executions").then(), 422, "VALUE_INVALID")
                    .body("field", equalTo("createdFrom"));
            problem(as(VIEWER).queryParam("createdBefore", date).get("/batch/executions").then(), 422, "VALUE_INVALID")
                    .body("field", equalTo("createdBefore"));
            problem(as(VIEWER).queryParam("before", date).get("/batch/purge/survey").then(), 422, "VALUE_INVALID")
                    .body("field", equalTo("before"));
        }
        as(VIEWER).queryParam("createdFrom", "0001-01-01T00:00:00Z").queryParam("createdBefore", "9999-12-31T23:59:59Z")
                .get("/batch/executions").then().statusCode(200);
    }

    @Test
    void aNullPurgeCandidateIsRefusedAndNothingIsPurged() throws Exception {
        Map<String, Long> before = Rest.rowCounts(dataSource);
        problem(as(ADMIN).contentType(ContentType.JSON).body("{\"candidates\":[null]}").post("/batch/purge").then(), 422,
                "VALUE_INVALID").body("field", equalTo("candidates[0]"));
        assertEquals(before, Rest.rowCounts(dataSource));
    }

    @Test
    void aBodyOfTheWrongShapeNamesTheFieldAndTheJsonExpectedNeverAJavaType() {
        String detail = problem(as(ADMIN).contentType(ContentType.JSON).header("If-Match", "\"1\"")
                .body("{\"resolution\":\"LATER\",\"reason\":\"X\"}").post("/batch/executions/1/recover").then(), 422,
                "VALUE_INVALID").body("field", equalTo("resolution")).extract().path("detail");
        assertTrue(detail.contains("[FAILED, ABANDONED]"), detail);
        assertFalse(detail.contains("io.durablebatch") || detail.contains("java."), detail);
        String malformed = problem(as(ADMIN).contentType(ContentType.JSON).body("{\"candidates\":[").post("/batch/purge")
                .then(), 400, "REQUEST_MALFORMED").extract().path("detail");
        assertFalse(malformed.contains("com.fasterxml"), malformed);
    }

    @Test
    void linksAndLocationsNeverComeFromTheHostHeader() throws Exception {
        String run = UUID.randomUUID().toString();
        for (String key : List.of(run + "-1", run + "-2")) {
            QuarkusTransaction.requiringNew().run(() -> repository.createJobExecution(JobExecutionRequest.of(repository
                    .selectOrCreateJobInstance(JobInstanceKey.of(JobName.of("hosted"), Map.of("run", key))).instance()
                    .id())));
        }
        String page = raw("GET /batch/executions?job=hosted&size=1 HTTP/1.1\r\nHost: attacker.example\r\n"
                + "Authorization: Basic " + basic(VIEWER) + "\r\nConnection: close\r\n\r\n");
        assertTrue(page.startsWith("HTTP/1.1 200"), page);
        assertTrue(page.contains("\r\nLink: </batch/executions?"), page);
        assertFalse(page.contains("attacker.example"), page);

        String body = "{\"parameters\":{\"run\":\"" + run + "\"},\"nonIdentifying\":{\"mode\":\"fail\"}}";
        String launched = raw("POST /batch/jobs/" + RestProbeJob.NAME + "/executions HTTP/1.1\r\nHost: attacker.example\r\n"
                + "Authorization: Basic " + basic(OPERATOR) + "\r\nContent-Type: application/json\r\nContent-Length: "
                + body.length() + "\r\nConnection: close\r\n\r\n" + body);
        assertTrue(launched.startsWith("HTTP/1.1 202"), launched);
        assertTrue(launched.matches("(?s).*\r\nLocation: /batch/executions/\\d+\r\n.*"), launched);
        assertFalse(launched.contains("attacker.example"), launched);
    }

    private static ValidatableResponse problem(ValidatableResponse response, int status, String code) {
        return response.statusCode(status).contentType(PROBLEM).body("status", equalTo(status)).body("code", equalTo(code))
                .body("type", equalTo("urn:durable-batch:problem:" + code.toLowerCase().replace('_', '-')))
                .body("title", notNullValue()).body("detail", notNullValue())
                .body("correlationId", matchesPattern(UUID_PATTERN))
                .body("detail", not(containsString("Exception"))).body("detail", not(containsString("java.")));
    }

    private static String basic(String user) {
        return java.util.Base64.getEncoder().encodeToString((user + ":" + user + "-secret").getBytes(StandardCharsets.UTF_8));
    }

    /** One request written as is over a socket (the Host header included), and the whole answer. */
    static String raw(String request) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", RestAssured.port)) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            in.transferTo(answer);
            return answer.toString(StandardCharsets.UTF_8);
        }
    }
}
