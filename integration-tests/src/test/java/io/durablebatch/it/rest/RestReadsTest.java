package io.durablebatch.it.rest;

import static io.durablebatch.it.rest.Rest.VIEWER;
import static io.durablebatch.it.rest.Rest.as;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobInstanceKey;
import io.durablebatch.execution.JobName;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;

/**
 * The reads of the REST API over real HTTP: definitions, instances by job and by parameters,
 * executions filtered and keyset-paged over several pages (next cursor in the body and in a Link
 * header), partitions, audits and holds.
 */
@QuarkusTest
class RestReadsTest {

    @Inject
    JobRepository repository;

    @Inject
    MetadataSql sql;

    @Test
    void jobDefinitionsNameTheirRevisionFingerprintAndNodes() {
        as(VIEWER).get("/batch/jobs").then().statusCode(200).body("name", hasItem(RestProbeJob.NAME))
                .body("name", hasItem("importOrders"));
        as(VIEWER).get("/batch/jobs/{job}", RestProbeJob.NAME).then().statusCode(200).body("revision", equalTo("1"))
                .body("startNode", equalTo("probe")).body("nodes[0].id", equalTo("probe"))
                .body("fingerprint.size()", equalTo(64));
        as(VIEWER).get("/batch/jobs/noSuchJob").then().statusCode(404).body("code", equalTo("JOB_NOT_DEFINED"));
    }

    @Test
    void instancesAndExecutionsArePagedByCursorOverSeveralPages() {
        String job = "paged-" + UUID.randomUUID().toString().substring(0, 8);
        List<Long> instances = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            long instance = QuarkusTransaction.requiringNew().call(() -> {
                JobInstanceId id = repository.selectOrCreateJobInstance(JobInstanceKey.of(JobName.of(job),
                        Map.of("n", UUID.randomUUID().toString()))).instance().id();
                repository.createJobExecution(JobExecutionRequest.of(id));
                return id.value();
            });
            instances.add(0, instance); // newest first
        }

        assertEquals(instances, walk("/batch/jobs/" + job + "/instances?size=3", "id", 3));
        List<Long> executions = walk("/batch/executions?job=" + job + "&status=STARTING&size=2", "jobInstanceId", 4);
        assertEquals(instances, executions);
        assertEquals(List.of(), walk("/batch/executions?job=" + job + "&status=COMPLETED", "id", 1));
        assertEquals(instances, walk("/batch/executions?job=" + job + "&createdFrom=2000-01-01T00:00:00Z&size=500",
                "jobInstanceId", 1));
        assertEquals(4, fewestStatements(() -> walk("/batch/executions?job=" + job + "&size=2", "id", 4)),
                "repository statements for 4 pages of executions");

        long first = instances.get(instances.size() - 1);
        Map<String, Object> parameters = as(VIEWER).get("/batch/instances/{id}", first).then().statusCode(200)
                .body("executions.size()", equalTo(1)).extract().path("instance.parameters");
        as(VIEWER).queryParam("parameters", "{\"n\":\"" + parameters.get("n") + "\"}")
                .get("/batch/jobs/{job}/instance", job).then().statusCode(200).body("id", equalTo((int) first));
        as(VIEWER).queryParam("parameters", "{\"n\":\"none\"}").get("/batch/jobs/{job}/instance", job).then()
                .statusCode(404).body("code", equalTo("JOB_INSTANCE_NOT_FOUND"));
        as(VIEWER).get("/batch/executions?cursor=not-a-cursor").then().statusCode(422).body("field",
                equalTo("page.after"));
    }

    @Test
    void auditsHoldsAndPartitionsAreListed() {
        long instance = QuarkusTransaction.requiringNew().call(() -> repository.selectOrCreateJobInstance(
                JobInstanceKey.of(JobName.of("listed"), Map.of("n", UUID.randomUUID().toString()))).instance().id()
                .value());
        RestActionsTest.placeHold(instance, "listed-" + instance, Map.of("reason", "AUDIT")).then().statusCode(200);
        as(VIEWER).get("/batch/holds?size=500").then().statusCode(200).body("items.jobInstanceId",
                hasItem((int) instance));
        as(VIEWER).get("/batch/audit/retention?instance=" + instance).then().statusCode(200)
                .body("items[0].operationId", equalTo("listed-" + instance));
        as(VIEWER).get("/batch/audit/operator?size=5").then().statusCode(200);
        as(VIEWER).get("/batch/audit/recovery?instance=" + instance).then().statusCode(200).body("items.size()",
                equalTo(0));
        as(VIEWER).get("/batch/executions/1/steps/{step}/partitions", Long.MAX_VALUE).then().statusCode(404)
                .body("code", equalTo("STEP_EXECUTION_NOT_FOUND"));
    }

    /**
     * The repository statements a walk over the pages issues: the fewest of five walks, since the
     * kernel's background work (lease sweeps) may issue statements meanwhile, which only add to a count.
     */
    private long fewestStatements(Runnable walk) {
        long fewest = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            long before = sql.statementsExecuted();
            walk.run();
            fewest = Math.min(fewest, sql.statementsExecuted() - before);
        }
        return fewest;
    }

    /** Reads every page from {@code start}, checking the Link header of each, and collects {@code field}. */
    private static List<Long> walk(String start, String field, int expectedPages) {
        List<Long> values = new ArrayList<>();
        String next = start;
        int pages = 0;
        while (next != null) {
            // the links are encoded already
            ExtractableResponse<Response> page = as(VIEWER).urlEncodingEnabled(false).get(next).then().statusCode(200)
                    .extract();
            pages++;
            page.<List<Number>> path("items." + field).forEach(value -> values.add(value.longValue()));
            String cursor = page.path("next");
            String link = page.header("Link");
            if (cursor == null) {
                assertNull(link, "no Link on the last page");
                next = null;
            } else {
                assertNotNull(link, "a Link to the next page");
                assertTrue(link.endsWith(">; rel=\"next\""), link);
                URI uri = URI.create(link.substring(1, link.indexOf('>')));
                assertTrue(uri.getQuery().contains("cursor=" + cursor), link);
                next = uri.getPath() + "?" + uri.getRawQuery();
            }
        }
        assertEquals(expectedPages, pages, "pages of " + start);
        return values;
    }
}
