package io.durablebatch.it.rest;

import static io.durablebatch.it.rest.Rest.ADMIN;
import static io.durablebatch.it.rest.Rest.OPERATOR;
import static io.durablebatch.it.rest.Rest.OUTSIDER;
import static io.durablebatch.it.rest.Rest.VIEWER;
import static io.durablebatch.it.rest.Rest.as;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

/**
 * The security matrix over real HTTP: every endpoint (read from the resource by reflection) answers
 * 401 to an anonymous caller and 403 to every user without one of its roles, and nothing in the
 * repository changed; the roles in effect are viewer &sub; operator &sub; admin.
 */
@QuarkusTest
class RestSecurityTest {

    private static final List<String> USERS = List.of(OUTSIDER, VIEWER, OPERATOR, ADMIN);
    private static final Map<String, String> ROLE_OF = Map.of(OUTSIDER, "reporting", VIEWER, "batch-viewer", OPERATOR,
            "batch-operator", ADMIN, "batch-admin");

    @Inject
    AgroalDataSource dataSource;

    @Inject
    JobRepository repository;

    @Test
    void anonymousCallersGet401AndUsersWithoutTheRoleGet403AndNothingChanges() throws Exception {
        // a real target for every path: an active execution of an instance of restProbe
        JobExecution target = QuarkusTransaction.requiringNew().call(() -> repository.createJobExecution(
                JobExecutionRequest.of(repository.selectOrCreateJobInstance(JobInstanceKey.of(
                        JobName.of(RestProbeJob.NAME), Map.of("run", UUID.randomUUID().toString()))).instance().id())));
        long id = target.id().value();
        Map<String, Long> before = Rest.rowCounts(dataSource);
        int denied = 0;
        for (Rest.Endpoint endpoint : Rest.endpoints()) {
            given().contentType(ContentType.JSON).body("{}").request(endpoint.httpMethod(), endpoint.concrete(id))
                    .then().statusCode(401).header("WWW-Authenticate", startsWith("basic"))
                    .body("code", equalTo("UNAUTHENTICATED"));
            for (String user : USERS) {
                if (!endpoint.roles().contains(ROLE_OF.get(user))) {
                    as(user).contentType(ContentType.JSON).header("Idempotency-Key", "denied-" + UUID.randomUUID())
                            .header("If-Match", "\"" + target.version() + "\"")
                            .body(body(endpoint)).request(endpoint.httpMethod(), endpoint.concrete(id))
                            .then().statusCode(403).contentType("application/problem+json")
                            .body("code", equalTo("FORBIDDEN"));
                    denied++;
                }
            }
        }
        assertEquals(before, Rest.rowCounts(dataSource), "rows per repository table");
        assertTrue(denied > Rest.endpoints().size(), "denied requests: " + denied);
        assertEquals(target, QuarkusTransaction.requiringNew().call(() -> repository.getJobExecution(target.id()))
                .orElseThrow(), "the target execution is unchanged");
    }

    @Test
    void theRolesInEffectAreViewerWithinOperatorWithinAdmin() {
        for (Rest.Endpoint endpoint : Rest.endpoints()) {
            boolean read = endpoint.httpMethod().equals("GET");
            assertEquals(read, endpoint.roles().contains("batch-viewer"), endpoint.path());
            assertTrue(endpoint.roles().contains("batch-admin"), endpoint.path());
            if (endpoint.roles().contains("batch-viewer")) {
                assertTrue(endpoint.roles().contains("batch-operator"), endpoint.path());
            }
        }
    }

    /** A body each action accepts, so a refusal can only come from the role. */
    private static Object body(Rest.Endpoint endpoint) {
        if (endpoint.path().endsWith("/recover")) {
            return Map.of("resolution", "FAILED", "reason", "DENIED", "ownerDeclaredDead", true);
        } else if (endpoint.path().endsWith("/hold")) {
            return Map.of("reason", "DENIED");
        } else if (endpoint.path().endsWith("/executions") && endpoint.httpMethod().equals("POST")) {
            return Map.of("parameters", Map.of("run", "denied"), "nonIdentifying", Map.of("mode", "done"));
        }
        return Map.of();
    }
}
