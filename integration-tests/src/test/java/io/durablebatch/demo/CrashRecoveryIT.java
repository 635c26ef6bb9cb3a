package io.durablebatch.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import org.junit.jupiter.api.Test;

import io.durablebatch.demo.DemoDatabase.StoredPartition;
import io.durablebatch.demo.DemoDatabase.StoredStep;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;

/**
 * The demo application in child JVMs: killed with SIGKILL in the middle of its partitioned chunk
 * step, left alone by an init task of the same node ({@code quarkus.init-and-exit}), then recovered at
 * the startup of the next run of the node and restarted; and stopped by
 * SIGTERM, ending STOPPED at chunk boundaries. Afterwards the target table holds every order exactly
 * once, and every unfinished partition resumed exactly at its last committed checkpoint.
 */
class CrashRecoveryIT {

    static final long ORDERS = 300_000;
    static final int FILES = 4;

    /** A day no other run uses, so each test imports into its own slice of demo_orders. */
    static LocalDate freshDay() {
        return LocalDate.of(2000, 1, 1).plusDays(ThreadLocalRandom.current().nextInt(1_000_000));
    }

    static long importedRows(LocalDate day) throws Exception {
        return DemoDatabase.shared().count("SELECT count(*) FROM demo_orders WHERE placed_on = ?", day);
    }

    static long distinctIds(LocalDate day) throws Exception {
        return DemoDatabase.shared().count("SELECT count(DISTINCT id) FROM demo_orders WHERE placed_on = ?", day);
    }

    static long start(ChildApplication app, LocalDate day) {
        return start(app, "importOrders", Map.of("day", day.toString(), "orders", ORDERS, "files", FILES));
    }

    static long start(ChildApplication app, String job, Map<String, Object> parameters) {
        return app.given().contentType(ContentType.JSON)
                .body(Map.of("parameters", parameters))
                .post("/jobs/{job}/start", job).then().statusCode(202).extract().jsonPath().getLong("executionId");
    }

    static long restart(ChildApplication app, long executionId) {
        return app.given().contentType(ContentType.JSON).body(Map.of())
                .post("/jobs/executions/{id}/restart", executionId).then().statusCode(202).extract().jsonPath()
                .getLong("executionId");
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
            JsonPath execution = app.given().get("/jobs/executions/{id}", executionId).then()
                    .statusCode(200).extract().jsonPath();
            if (!List.of("STARTING", "STARTED", "STOPPING").contains(execution.getString("status"))) {
                return execution;
            }
            assertTrue(System.nanoTime() < deadline, "execution " + executionId + " did not end");
            Thread.sleep(200);
        }
    }

    static StoredStep step(long executionId, String name) throws Exception {
        return DemoDatabase.shared().steps(executionId).stream().filter(step -> step.name().equals(name)).findFirst()
                .orElseThrow();
    }

    static long readByWorkers(long executionId) throws Exception {
        return DemoDatabase.shared().steps(executionId).stream().filter(step -> step.name().equals("importFile"))
                .mapToLong(StoredStep::readCount).sum();
    }

    @Test
    void killedMidPartitionedStepThenRecoveredAtStartupAndRestartedImportsEveryOrderExactlyOnce() throws Exception {
        LocalDate day = freshDay();
        Map<String, String> node = Map.of("quarkus.durable-batch.node-id", "crash-node",
                "quarkus.durable-batch.recovery.startup.enabled", "true",
                "quarkus.durable-batch.lease.duration", "3s");
        long crashed;
        try (ChildApplication first = ChildApplication.start("crash-first", 8191, node)) {
            crashed = start(first, day);
            awaitRows(day, 60_000);
            first.kill();
        }
        // What the dead process left: an active execution and the chunks it committed, nothing more.
        assertEquals("STARTED", DemoDatabase.shared().executionStatus(crashed));
        StoredStep parent = step(crashed, "import");
        assertEquals("STARTED", parent.status());
        List<StoredPartition> interrupted = DemoDatabase.shared().partitions(parent.id());
        long committed = importedRows(day);
        assertEquals(interrupted.stream().mapToLong(StoredPartition::workerWrites).sum(), committed,
                "the rows are exactly those of the committed chunks");
        assertEquals(0, committed % 1000, "whole chunks of 1000 committed");
        assertTrue(committed < ORDERS, "killed mid-step, after " + committed + " rows");

        // startup recovery takes only executions whose lease ran out: another replica with this node id
        // could be running the others
        Thread.sleep(3_000);
        // run as an init task, the node migrates and exits: it recovers nothing, that is its next start's job
        assertEquals(0, ChildApplication.runInitTask("crash-init-task", node, Duration.ofSeconds(60)));
        assertEquals("STARTED", DemoDatabase.shared().executionStatus(crashed), "an init task starts no kernel");
        try (ChildApplication second = ChildApplication.start("crash-second", 8192, node)) {
            // recovered at startup: this node's previous run cannot be running it any more
            assertEquals("FAILED", DemoDatabase.shared().executionStatus(crashed));
            assertEquals("system:startup", DemoDatabase.shared().recoveryActor(crashed));
            long restarted = restart(second, crashed);
            JsonPath ended = awaitEnd(second, restarted);
            assertEquals("COMPLETED", ended.getString("status"), ended.prettify());

            assertEquals(ORDERS - committed, readByWorkers(restarted), "the restart read only what was not committed");
            String log = second.log();
            for (StoredPartition partition : interrupted) {
                if (!partition.status().equals("COMPLETED") && partition.workerCheckpointHex() != null) {
                    assertTrue(log.contains("opened its reader at Checkpoint[" + partition.workerCheckpointHex() + "]"),
                            "partition " + partition.key() + " reopened its reader at its last committed checkpoint");
                }
            }
        }
        assertEquals(ORDERS, importedRows(day));
        assertEquals(ORDERS, distinctIds(day), "no order was imported twice");
        assertEquals(ORDERS, DemoDatabase.shared().count("SELECT orders FROM demo_daily_summary WHERE placed_on = ?", day));
    }

    /**
     * The Panache keyset reader killed mid-step: the restart reads only the orders after the last key
     * a committed chunk audited, and every order is audited exactly once (a second sighting would
     * break the audit table's primary key and fail the job).
     */
    @Test
    void panacheReaderKilledMidStepRestartsAfterTheLastCommittedKey() throws Exception {
        LocalDate day = freshDay();
        long orders = 60_000;
        Map<String, String> node = Map.of("quarkus.durable-batch.node-id", "audit-node",
                "quarkus.durable-batch.recovery.startup.enabled", "true",
                "quarkus.durable-batch.lease.duration", "3s");
        long crashed;
        try (ChildApplication first = ChildApplication.start("audit-first", 8195, node)) {
            long imported = start(first, "importOrders", Map.of("day", day.toString(), "orders", orders, "files", 2));
            assertEquals("COMPLETED", awaitEnd(first, imported).getString("status"));
            crashed = start(first, "auditOrders", Map.of("day", day.toString()));
            awaitAudited(day, 10_000);
            first.kill();
        }
        long committed = audited(day);
        assertEquals(0, committed % 500, "whole chunks of 500 committed");
        assertTrue(committed < orders, "killed mid-step, after " + committed + " orders");
        assertEquals(committed, step(crashed, "audit").writeCount(), "the rows are exactly those of the committed chunks");

        Thread.sleep(3_000);
        try (ChildApplication second = ChildApplication.start("audit-second", 8196, node)) {
            assertEquals("FAILED", DemoDatabase.shared().executionStatus(crashed));
            long restarted = restart(second, crashed);
            JsonPath ended = awaitEnd(second, restarted);
            assertEquals("COMPLETED", ended.getString("status"), ended.prettify());
            assertEquals(orders - committed, step(restarted, "audit").readCount(),
                    "the restart read only the orders after the last committed key");
        }
        assertEquals(orders, audited(day));
    }

    static long audited(LocalDate day) throws Exception {
        return DemoDatabase.shared().count("SELECT count(*) FROM demo_order_audit WHERE placed_on = ?", day);
    }

    static void awaitAudited(LocalDate day, long atLeast) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (audited(day) < atLeast) {
            assertTrue(System.nanoTime() < deadline, "the audit never reached " + atLeast + " orders");
            Thread.sleep(20);
        }
    }

    @Test
    void sigtermStopsTheRunningExecutionAtChunkBoundariesAndARestartCompletesIt() throws Exception {
        LocalDate day = freshDay();
        long stopped;
        try (ChildApplication first = ChildApplication.start("sigterm-first", 8193, Map.of())) {
            stopped = start(first, day);
            awaitRows(day, 60_000);
            // the JVM runs its shutdown hooks (Quarkus' shutdown) and exits with 128 + SIGTERM
            assertEquals(143, first.terminate(Duration.ofSeconds(60)), "a graceful exit");
            assertTrue(first.log().contains("Stopping 1 job execution(s) at their next chunk boundary"), first.log());
        }
        assertEquals("STOPPED", DemoDatabase.shared().executionStatus(stopped));
        StoredStep parent = step(stopped, "import");
        assertEquals("STOPPED", parent.status());
        long committed = importedRows(day);
        assertEquals(0, committed % 1000);

        try (ChildApplication second = ChildApplication.start("sigterm-second", 8194, Map.of())) {
            long restarted = restart(second, stopped);
            assertEquals("COMPLETED", awaitEnd(second, restarted).getString("status"));
            assertEquals(ORDERS - committed, readByWorkers(restarted));
        }
        assertEquals(ORDERS, importedRows(day));
        assertEquals(ORDERS, distinctIds(day));
    }
}
