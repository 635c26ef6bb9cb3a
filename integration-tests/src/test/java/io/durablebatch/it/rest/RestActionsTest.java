package io.durablebatch.it.rest;

import static io.durablebatch.it.rest.Rest.ADMIN;
import static io.durablebatch.it.rest.Rest.OPERATOR;
import static io.durablebatch.it.rest.Rest.VIEWER;
import static io.durablebatch.it.rest.Rest.as;
import static io.durablebatch.it.rest.Rest.awaitStatus;
import static io.durablebatch.it.rest.Rest.count;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobInstanceKey;
import io.durablebatch.execution.JobName;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.JobRepository;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;

/**
 * Every action of the REST API over real HTTP against PostgreSQL: each retried with the same
 * Idempotency-Key is answered as the first time and applied once (one effect, one audit row);
 * If-Match with a stale version is refused with 412; refusals are problem documents with their code.
 */
@QuarkusTest
class RestActionsTest {

    private static final String PROBLEM = "application/problem+json";

    @Inject
    AgroalDataSource dataSource;

    @Inject
    JobRepository repository;

    @Test
    void startStopAndRestartAreEachAppliedOnceWhenRetried() throws Exception {
        String run = UUID.randomUUID().toString();
        Map<String, Object> launch = Map.of("parameters", Map.of("run", run, "day", Map.of("date", "2026-12-01")),
                "nonIdentifying", Map.of("mode", "wait"));
        ExtractableResponse<Response> started = start("start-" + run, launch).then().statusCode(202)
                .header("ETag", notNullValue()).body("jobName", equalTo(RestProbeJob.NAME)).extract();
        long id = started.<Integer> path("id");
        assertEquals("/batch/executions/" + id, java.net.URI.create(started.header("Location")).getPath());
        assertEquals(id, (long) start("start-" + run, launch).then().statusCode(202).extract().<Integer> path("id"));
        assertEquals(1, audited("START", "start-" + run));
        long instance = started.<Integer> path("jobInstanceId");
        assertEquals(1, executionsOf(instance));

        awaitStatus(id, "STARTED");
        ExtractableResponse<Response> read = as(VIEWER).get("/batch/executions/{id}", id).then().statusCode(200)
                .body("ownership.leaseLive", equalTo(true)).body("steps[0].stepName", equalTo("probe")).extract();
        String etag = read.header("ETag");
        assertEquals("\"" + read.<Integer> path("execution.version") + "\"", etag);

        as(OPERATOR).header("If-Match", "\"999999\"").header("Idempotency-Key", "stop-" + run)
                .post("/batch/executions/{id}/stop", id)
                .then().statusCode(412).contentType(PROBLEM).body("code", equalTo("VERSION_CONFLICT"))
                .body("currentVersion", equalTo(read.<Integer> path("execution.version")))
                .body("field", equalTo("If-Match"));
        assertEquals(0, audited("STOP", "stop-" + run), "a stale If-Match changes nothing");

        stop(id, etag, "stop-" + run).then().statusCode(200).header("ETag", notNullValue());
        stop(id, etag, "stop-" + run).then().statusCode(200); // the version moved: a retry is answered all the same
        assertEquals(1, audited("STOP", "stop-" + run));
        awaitStatus(id, "STOPPED");
        as(VIEWER).get("/batch/executions/{id}", id).then().body("ownership.stopRequestedBy", equalTo(OPERATOR));

        Map<String, Object> done = Map.of("nonIdentifying", Map.of("mode", "done"));
        long restarted = restart(id, "restart-" + run, done).then().statusCode(202).extract().<Integer> path("id");
        assertNotEquals(id, restarted);
        assertEquals(restarted, (long) restart(id, "restart-" + run, done).then().statusCode(202).extract()
                .<Integer> path("id"));
        assertEquals(1, audited("RESTART", "restart-" + run));
        awaitStatus(restarted, "COMPLETED");
        assertEquals(2, executionsOf(instance));
        as(VIEWER).get("/batch/executions/{id}", restarted).then().body("execution.parameters.mode", equalTo("done"))
                .body("execution.attempt", equalTo(2));

        restart(id, "restart-again-" + run, Map.of()).then().statusCode(409).contentType(PROBLEM)
                .body("code", equalTo("EXECUTION_SUPERSEDED"))
                .body("type", equalTo("urn:durable-batch:problem:execution-superseded"))
                .body("instance", equalTo("/batch/executions/" + id + "/restart"));
        start("start-again-" + run, launch).then().statusCode(409).contentType(PROBLEM)
                .body("code", equalTo("INSTANCE_COMPLETE"));
        start("start-" + run, Map.of("parameters", Map.of("run", "other-" + run), "nonIdentifying",
                Map.of("mode", "done"))).then().statusCode(409).body("code", equalTo("OPERATION_CONFLICT"));
        assertEquals(2, executionsOf(instance));
    }

    @Test
    void abandonIsAppliedOnceAndEndsTheInstance() throws Exception {
        String run = UUID.randomUUID().toString();
        Map<String, Object> launch = Map.of("parameters", Map.of("run", run), "nonIdentifying", Map.of("mode", "fail"));
        long id = start("start-" + run, launch).then().statusCode(202).extract().<Integer> path("id");
        awaitStatus(id, "FAILED");
        String etag = as(VIEWER).get("/batch/executions/{id}", id).then().body("execution.failure.message",
                equalTo("the probe failed, as asked")).extract().header("ETag");

        abandon(id, etag, "abandon-" + run).then().statusCode(200).body("status", equalTo("ABANDONED"));
        abandon(id, etag, "abandon-" + run).then().statusCode(200).body("status", equalTo("ABANDONED"));
        assertEquals(1, audited("ABANDON", "abandon-" + run));

        abandon(id, null, "abandon-again-" + run).then().statusCode(409).contentType(PROBLEM)
                .body("code", equalTo("ILLEGAL_TRANSITION"));
        start("start-again-" + run, launch).then().statusCode(409).body("code", equalTo("INSTANCE_ABANDONED"));
    }

    @Test
    void recoveryTakesItsObservedVersionFromIfMatchAndIsAppliedOnce() throws Exception {
        JobExecution orphan = orphan();
        long id = orphan.id().value();
        Map<String, Object> recovery = Map.of("resolution", "FAILED", "reason", "OWNER_GONE", "ownerDeclaredDead", true);

        recover(id, null, "recover-" + id, recovery).then().statusCode(428).contentType(PROBLEM)
                .body("code", equalTo("PRECONDITION_REQUIRED"));
        recover(id, "\"" + (orphan.version().value() + 5) + "\"", "recover-" + id, recovery).then().statusCode(412)
                .body("code", equalTo("VERSION_CONFLICT")).body("currentVersion", equalTo((int) orphan.version().value()));
        String etag = "\"" + orphan.version().value() + "\"";
        recover(id, etag, "recover-" + id, recovery).then().statusCode(200)
                .body("decision.resolution", equalTo("FAILED")).body("decision.actor", equalTo(ADMIN))
                .body("execution.status", equalTo("FAILED")).body("replayed", equalTo(false));
        recover(id, etag, "recover-" + id, recovery).then().statusCode(200).body("replayed", equalTo(true))
                .body("decision.operationId", equalTo("recover-" + id));
        assertEquals(1, count(dataSource, "SELECT count(*) FROM dbatch_recovery_decision WHERE job_execution_id = " + id));
        as(VIEWER).get("/batch/executions/{id}/recovery", id).then().statusCode(200)
                .body("reason", equalTo("OWNER_GONE"));

        recover(id, "\"" + (orphan.version().value() + 1) + "\"", "recover-again-" + id, recovery).then()
                .statusCode(409).body("code", anyOf(equalTo("EXECUTION_NOT_RECOVERABLE"), equalTo("ALREADY_RECOVERED")));
        restart(id, "restart-" + id, Map.of()).then().statusCode(404).contentType(PROBLEM)
                .body("code", equalTo("JOB_NOT_DEFINED"));
        recover(id, etag, "recover-bad-" + id, Map.of("resolution", "MAYBE", "reason", "X")).then().statusCode(422)
                .contentType(PROBLEM).body("code", equalTo("VALUE_INVALID")).body("field", equalTo("resolution"));
    }

    @Test
    void holdsArePlacedAndReleasedOnceWhenRetried() throws Exception {
        long instance = instanceOf("hold-" + UUID.randomUUID());
        as(VIEWER).get("/batch/instances/{id}/hold", instance).then().statusCode(404).body("code",
                equalTo("HOLD_NOT_FOUND"));

        Map<String, String> legal = Map.of("reason", "LEGAL_HOLD");
        Map<String, Object> placed = placeHold(instance, "hold-" + instance, legal).then().statusCode(200)
                .body("action", equalTo("PLACE_HOLD")).body("actor", equalTo(ADMIN)).extract().as(Map.class);
        assertEquals(placed, placeHold(instance, "hold-" + instance, legal).then().statusCode(200).extract().as(Map.class));
        assertEquals(1, count(dataSource, "SELECT count(*) FROM dbatch_retention_action WHERE operation_id = 'hold-"
                + instance + "'"));
        placeHold(instance, "hold-again-" + instance, legal).then().statusCode(409).body("code", equalTo("HOLD_EXISTS"));
        as(VIEWER).get("/batch/instances/{id}/hold", instance).then().statusCode(200).body("reason",
                equalTo("LEGAL_HOLD"));
        as(VIEWER).get("/batch/instances/{id}", instance).then().statusCode(200).body("hold.actor", equalTo(ADMIN));

        Map<String, Object> released = releaseHold(instance, "release-" + instance).then().statusCode(200)
                .body("outcome", equalTo("RELEASED")).extract().as(Map.class);
        assertEquals(released, releaseHold(instance, "release-" + instance).then().statusCode(200).extract()
                .as(Map.class));
        releaseHold(instance, "release-again-" + instance).then().statusCode(404).body("code",
                equalTo("HOLD_NOT_FOUND"));
        assertEquals(0, count(dataSource, "SELECT count(*) FROM dbatch_retention_hold WHERE job_instance_id = "
                + instance));
    }

    @Test
    void aPurgeOfASurveyIsAppliedOnceAndAStalePlanDeletesNothing() throws Exception {
        String job = "purge-" + UUID.randomUUID().toString().substring(0, 8);
        long first = instanceOf(job);
        String before = Instant.now().plusSeconds(60).toString();
        List<Map<String, Object>> candidates = as(VIEWER).queryParam("before", before).queryParam("job", job)
                .get("/batch/purge/survey").then().statusCode(200).extract().path("candidates");
        assertEquals(1, candidates.size());
        assertEquals(first, ((Number) candidates.get(0).get("jobInstanceId")).longValue());

        Map<String, Object> purged = purge("purge-" + job, candidates).then().statusCode(200)
                .body("outcome", startsWith("PURGED 1 instances")).extract().as(Map.class);
        assertEquals(purged, purge("purge-" + job, candidates).then().statusCode(200).extract().as(Map.class));
        as(VIEWER).get("/batch/instances/{id}", first).then().statusCode(404).body("code",
                equalTo("JOB_INSTANCE_NOT_FOUND"));

        long second = instanceOf(job);
        List<Map<String, Object>> stale = as(VIEWER).queryParam("before", before).queryParam("job", job)
                .get("/batch/purge/survey").then().statusCode(200).extract().path("candidates");
        placeHold(second, "hold-" + second, Map.of("reason", "KEEP")).then().statusCode(200);
        purge("purge-stale-" + job, stale).then().statusCode(409).contentType(PROBLEM)
                .body("code", equalTo("RETENTION_PLAN_STALE"));
        as(VIEWER).get("/batch/instances/{id}", second).then().statusCode(200);
        as(VIEWER).queryParam("before", "yesterday").get("/batch/purge/survey").then().statusCode(422)
                .contentType(PROBLEM).body("field", equalTo("before"));
    }

    @Test
    void badRequestsAreProblemsNamingTheirField() {
        as(OPERATOR).contentType(ContentType.JSON).body("{not json").post("/batch/jobs/restProbe/executions")
                .then().statusCode(400).contentType(PROBLEM).body("code", equalTo("REQUEST_MALFORMED"));
        as(OPERATOR).contentType(ContentType.JSON).body(Map.of("parameters", Map.of("run", List.of(1, 2))))
                .post("/batch/jobs/restProbe/executions")
                .then().statusCode(422).contentType(PROBLEM).body("code", equalTo("VALUE_INVALID"))
                .body("field", equalTo("parameters.run"));
        as(OPERATOR).contentType(ContentType.JSON).header("Idempotency-Key", "has space")
                .body(Map.of("parameters", Map.of("run", "x"))).post("/batch/jobs/restProbe/executions")
                .then().statusCode(422).body("field", equalTo("Idempotency-Key"));
        as(OPERATOR).contentType(ContentType.JSON).body(Map.of()).post("/batch/jobs/noSuchJob/executions")
                .then().statusCode(404).contentType(PROBLEM).body("code", equalTo("JOB_NOT_DEFINED"));
        as(VIEWER).get("/batch/executions/{id}", Long.MAX_VALUE).then().statusCode(404).contentType(PROBLEM)
                .body("code", equalTo("JOB_EXECUTION_NOT_FOUND")).body("status", equalTo(404));
        as(VIEWER).get("/batch/executions/0").then().statusCode(422).body("field", equalTo("jobExecutionId"));
        as(VIEWER).get("/batch/executions?size=501").then().statusCode(422).body("field", equalTo("page.size"));
        as(VIEWER).get("/batch/executions?status=RUNNING").then().statusCode(422).body("field", equalTo("status"));
    }

    // Requests

    private static Response start(String key, Object body) {
        return as(OPERATOR).contentType(ContentType.JSON).header("Idempotency-Key", key).body(body)
                .post("/batch/jobs/{job}/executions", RestProbeJob.NAME);
    }

    private static Response restart(long id, String key, Object body) {
        return as(OPERATOR).contentType(ContentType.JSON).header("Idempotency-Key", key).body(body)
                .post("/batch/executions/{id}/restart", id);
    }

    private static Response stop(long id, String etag, String key) {
        return as(OPERATOR).header("If-Match", etag).header("Idempotency-Key", key).post("/batch/executions/{id}/stop",
                id);
    }

    private static Response abandon(long id, String etag, String key) {
        var request = as(ADMIN).header("Idempotency-Key", key);
        return (etag == null ? request : request.header("If-Match", etag)).post("/batch/executions/{id}/abandon", id);
    }

    private static Response recover(long id, String etag, String key, Object body) {
        var request = as(ADMIN).contentType(ContentType.JSON).header("Idempotency-Key", key).body(body);
        return (etag == null ? request : request.header("If-Match", etag)).post("/batch/executions/{id}/recover", id);
    }

    static Response placeHold(long instance, String key, Object body) {
        return as(ADMIN).contentType(ContentType.JSON).header("Idempotency-Key", key).body(body)
                .put("/batch/instances/{id}/hold", instance);
    }

    private static Response releaseHold(long instance, String key) {
        return as(ADMIN).header("Idempotency-Key", key).delete("/batch/instances/{id}/hold", instance);
    }

    private static Response purge(String key, List<Map<String, Object>> candidates) {
        return as(ADMIN).contentType(ContentType.JSON).header("Idempotency-Key", key)
                .body(Map.of("candidates", candidates)).post("/batch/purge");
    }

    // The database

    private long audited(String action, String operationId) throws SQLException {
        return count(dataSource, "SELECT count(*) FROM dbatch_operator_request WHERE action = '" + action
                + "' AND operation_id = '" + operationId + "'");
    }

    private long executionsOf(long instance) throws SQLException {
        return count(dataSource, "SELECT count(*) FROM dbatch_job_execution WHERE job_instance_id = " + instance);
    }

    /** A new instance of {@code job} that never ran, created through the repository. */
    private long instanceOf(String job) {
        return QuarkusTransaction.requiringNew().call(() -> repository.selectOrCreateJobInstance(
                JobInstanceKey.of(JobName.of(job), Map.of("n", UUID.randomUUID().toString()))).instance().id().value());
    }

    /** An execution left STARTING by a process that is gone: recorded, owned by nobody here. */
    private JobExecution orphan() {
        return QuarkusTransaction.requiringNew().call(() -> repository.createJobExecution(JobExecutionRequest.of(
                repository.selectOrCreateJobInstance(JobInstanceKey.of(JobName.of("restOrphan"),
                        Map.of("n", UUID.randomUUID().toString()))).instance().id())));
    }

}
