package io.durablebatch.rest.deployment.test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.execution.JobName;
import io.durablebatch.repository.JobRepository;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.specification.RequestSpecification;

/**
 * The {@code Idempotency-Key} over HTTP (issue 26): it is the caller's own (the authenticated
 * principal's), so another user sending it is answered for their own request, never with the
 * first user's answer; and a header that is present but empty is refused with a 400 problem
 * instead of being taken as no key.
 */
class IdempotencyKeyTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RootPathJob.class))
            .overrideConfigKey("quarkus.http.test-port", "0")
            .overrideConfigKey("quarkus.http.auth.basic", "true")
            .overrideConfigKey("quarkus.security.users.embedded.enabled", "true")
            .overrideConfigKey("quarkus.security.users.embedded.plain-text", "true")
            .overrideConfigKey("quarkus.security.users.embedded.users.alice", "alice-secret")
            .overrideConfigKey("quarkus.security.users.embedded.roles.alice", "batch-operator,batch-admin")
            .overrideConfigKey("quarkus.security.users.embedded.users.bob", "bob-secret")
            .overrideConfigKey("quarkus.security.users.embedded.roles.bob", "batch-operator,batch-admin");

    @Inject
    JobRepository repository;

    @Test
    void anEmptyKeyIsRefusedAndNothingIsLaunched() {
        long before = instances();
        as("alice").contentType("application/json").header("Idempotency-Key", "")
                .body(Map.of("parameters", Map.of("run", UUID.randomUUID().toString())))
                .post("/batch/jobs/{job}/executions", RootPathJob.NAME)
                .then().statusCode(400).contentType("application/problem+json")
                .body("code", equalTo("REQUEST_MALFORMED")).body("field", equalTo("Idempotency-Key"));
        assertEquals(before, instances(), "nothing was launched");
    }

    @Test
    void anotherUsersSameKeyIsTheirOwnRequest() {
        String key = "shared-" + UUID.randomUUID();
        Map<String, Object> body = Map.of("parameters", Map.of("run", UUID.randomUUID().toString()));
        int alices = start("alice", key, body).then().statusCode(202).extract().path("id");
        // alice's retry is her answer; bob's same key is bob's request: the instance is COMPLETED
        assertEquals(alices, start("alice", key, body).then().statusCode(202).extract().<Integer> path("id"));
        start("bob", key, body).then().statusCode(409).body("code", equalTo("INSTANCE_COMPLETE"));

        // retention: bob's hold under alice's key is his own request, refused since alice's hold stands
        long instance = as("alice").get("/batch/executions/{id}", alices).then().statusCode(200).extract()
                .<Integer> path("execution.jobInstanceId");
        String holdKey = "hold-" + UUID.randomUUID();
        hold("alice", holdKey, instance).then().statusCode(200).body("actor", equalTo("alice"));
        hold("bob", holdKey, instance).then().statusCode(409).body("code", equalTo("HOLD_EXISTS"))
                .body("detail", not(equalTo("")));
        hold("alice", holdKey, instance).then().statusCode(200).body("actor", equalTo("alice"));
        // the audit records who asked: alice's hold, and nothing of bob's refused one
        as("alice").queryParam("instance", instance).get("/batch/audit/retention").then().statusCode(200)
                .body("items.actor", equalTo(java.util.List.of("alice")));
    }

    private io.restassured.response.Response start(String user, String key, Map<String, Object> body) {
        return as(user).contentType("application/json").header("Idempotency-Key", key).body(body)
                .post("/batch/jobs/{job}/executions", RootPathJob.NAME);
    }

    private io.restassured.response.Response hold(String user, String key, long instance) {
        return as(user).contentType("application/json").header("Idempotency-Key", key)
                .body(Map.of("reason", "LEGAL_HOLD")).put("/batch/instances/{id}/hold", instance);
    }

    private long instances() {
        return QuarkusTransaction.requiringNew().call(() -> repository.countJobInstances(JobName.of(RootPathJob.NAME)));
    }

    private static RequestSpecification as(String user) {
        return given().auth().preemptive().basic(user, user + "-secret");
    }
}
