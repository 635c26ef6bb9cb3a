package io.durablebatch.demo;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import org.junit.jupiter.api.Test;

import io.durablebatch.demo.DemoDatabase.StoredStep;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;

/**
 * The demo application in child JVMs: killed with SIGKILL in the middle of its chunk step, then
 * recovered and restarted by another process; and stopped by SIGTERM, ending STOPPED at a chunk
 * boundary. Afterwards the target table holds every order exactly once.
 */
class CrashRecoveryIT {

    static final long ORDERS = 300_000;

    /** A day no other run uses, so each test imports into its own slice of demo_orders. */
    static LocalDate freshDay() {
        return LocalDate.of(2000, 1, 1).plusDays(ThreadLocalRandom.current().nextInt(1_000_000));
    }

    static long importedRows(LocalDate day) throws Exception {
        return DemoDatabase.count("SELECT count(*) FROM demo_orders WHERE placed_on = ?", day);
    }

    static long distinctIds(LocalDate day) throws Exception {
        return DemoDatabase.count("SELECT count(DISTINCT id) FROM demo_orders WHERE placed_on = ?", day);
    }

    static long start(ChildApplication app, LocalDate day) {
        return given().baseUri(app.baseUri()).contentType(ContentType.JSON)
                .body(Map.of("parameters", Map.of("day", day.toString(), "orders", ORDERS), "actor", "it"))
                .post("/jobs/importOrders/start").then().statusCode(202).extract().jsonPath().getLong("executionId");
    }

    static void awaitRows(LocalDate day, long atLeast) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (importedRows(day) < atLeast) {
            assertTrue(System.nanoTime() < deadline, "the import never reached " + atLeast + " rows");
            Thread.sleep(20);
        }
    }

    static JsonPath awaitEnd(ChildApplication app, long executionId) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (true) {
            JsonPath execution = given().baseUri(app.baseUri()).get("/jobs/executions/{id}", executionId).then()
                    .statusCode(200).extract().jsonPath();
            if (!List.of("STARTING", "STARTED", "STOPPING").contains(execution.getString("status"))) {
                return execution;
            }
            assertTrue(System.nanoTime() < deadline, "execution " + executionId + " did not end");
            Thread.sleep(200);
        }
    }

    static StoredStep importStep(long executionId) throws Exception {
        return DemoDatabase.steps(executionId).stream().filter(step -> step.name().equals("import")).findFirst()
                .orElseThrow();
    }

    @Test
    void killedMidChunkStepThenRecoveredAndRestartedImportsEveryOrderExactlyOnce() throws Exception {
        LocalDate day = freshDay();
        long crashed;
        try (ChildApplication first = ChildApplication.start("crash-first", 8191, Map.of())) {
            crashed = start(first, day);
            awaitRows(day, 60_000);
            first.kill();
        }
        // What the dead process left: an active execution and the chunks it committed, nothing more.
        assertEquals("STARTED", DemoDatabase.executionStatus(crashed));
        StoredStep interrupted = importStep(crashed);
        assertEquals("STARTED", interrupted.status());
        long committed = importedRows(day);
        assertEquals(interrupted.writeCount(), committed, "the rows are exactly those of the committed chunks");
        assertEquals(0, committed % 1000, "whole chunks of 1000 committed");
        assertTrue(committed < ORDERS, "killed mid-step, after " + committed + " rows");

        try (ChildApplication second = ChildApplication.start("crash-second", 8192, Map.of())) {
            JsonPath orphan = given().baseUri(second.baseUri()).get("/jobs/executions/{id}", crashed).then()
                    .statusCode(200).extract().jsonPath();
            given().baseUri(second.baseUri()).contentType(ContentType.JSON)
                    .body(Map.of("observedVersion", orphan.getLong("version"), "resolution", "FAILED", "reason",
                            "OWNER_LOST", "actor", "it"))
                    .post("/jobs/executions/{id}/recover", crashed).then().statusCode(200)
                    .body("status", org.hamcrest.Matchers.equalTo("FAILED"));
            long restarted = given().baseUri(second.baseUri()).contentType(ContentType.JSON).body(Map.of("actor", "it"))
                    .post("/jobs/executions/{id}/restart", crashed).then().statusCode(202).extract().jsonPath()
                    .getLong("executionId");
            JsonPath ended = awaitEnd(second, restarted);
            assertEquals("COMPLETED", ended.getString("status"), ended.prettify());

            StoredStep resumed = importStep(restarted);
            assertEquals(ORDERS - committed, resumed.readCount(), "the restart read only what was not committed");
            assertTrue(second.log().contains("(step execution " + resumed.id() + ") opened its reader at Checkpoint["
                    + interrupted.checkpointHex() + "]"), "the reader reopened at the last committed checkpoint "
                            + interrupted.checkpointHex());
        }
        assertEquals(ORDERS, importedRows(day));
        assertEquals(ORDERS, distinctIds(day), "no order was imported twice");
        assertEquals(ORDERS, DemoDatabase.count("SELECT orders FROM demo_daily_summary WHERE placed_on = ?", day));
    }

    @Test
    void sigtermStopsTheRunningExecutionAtAChunkBoundaryAndARestartCompletesIt() throws Exception {
        LocalDate day = freshDay();
        long stopped;
        try (ChildApplication first = ChildApplication.start("sigterm-first", 8193, Map.of())) {
            stopped = start(first, day);
            awaitRows(day, 60_000);
            // the JVM runs its shutdown hooks (Quarkus' shutdown) and exits with 128 + SIGTERM
            assertEquals(143, first.terminate(Duration.ofSeconds(60)), "a graceful exit");
            assertTrue(first.log().contains("Stopping 1 job execution(s) at their next chunk boundary"), first.log());
        }
        assertEquals("STOPPED", DemoDatabase.executionStatus(stopped));
        StoredStep interrupted = importStep(stopped);
        assertEquals("STOPPED", interrupted.status());
        long committed = importedRows(day);
        assertEquals(interrupted.writeCount(), committed);
        assertEquals(0, committed % 1000);

        try (ChildApplication second = ChildApplication.start("sigterm-second", 8194, Map.of())) {
            long restarted = given().baseUri(second.baseUri()).contentType(ContentType.JSON).body(Map.of("actor", "it"))
                    .post("/jobs/executions/{id}/restart", stopped).then().statusCode(202).extract().jsonPath()
                    .getLong("executionId");
            assertEquals("COMPLETED", awaitEnd(second, restarted).getString("status"));
            assertEquals(ORDERS - committed, importStep(restarted).readCount());
        }
        assertEquals(ORDERS, importedRows(day));
        assertEquals(ORDERS, distinctIds(day));
    }
}
