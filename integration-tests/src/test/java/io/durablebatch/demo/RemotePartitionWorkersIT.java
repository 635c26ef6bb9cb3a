package io.durablebatch.demo;

import static io.durablebatch.demo.CrashRecoveryIT.awaitEnd;
import static io.durablebatch.demo.CrashRecoveryIT.distinctIds;
import static io.durablebatch.demo.CrashRecoveryIT.freshDay;
import static io.durablebatch.demo.CrashRecoveryIT.importedRows;
import static io.durablebatch.demo.CrashRecoveryIT.step;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalDate;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.durablebatch.demo.DemoDatabase.StoredPartition;
import io.durablebatch.demo.DemoDatabase.StoredStep;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;

/**
 * Two JVMs of the demo application on one database: the launching node runs the import with a single
 * local worker, the other node only has remote partition workers. Both claim partitions of the same
 * plan; the parent (in the launching node) waits for all of them and aggregates; every order is
 * imported exactly once.
 */
class RemotePartitionWorkersIT {

    static final long ORDERS = 160_000;
    static final int FILES = 8;

    /** The worker step attempts that ran partitions of {@code parent} in one process, from its log. */
    static Set<Long> workersInLog(String log, long parent) {
        Matcher ended = Pattern.compile("Partition \\d+ \\([^)]*\\) of step execution " + parent
                + " ended COMPLETED in worker step execution (\\d+)").matcher(log);
        Set<Long> workers = new HashSet<>();
        while (ended.find()) {
            workers.add(Long.parseLong(ended.group(1)));
        }
        return workers;
    }

    @Test
    void workersOfBothProcessesClaimPartitionsAndEveryOrderIsImportedOnce() throws Exception {
        LocalDate day = freshDay();
        Map<String, String> launcher = Map.of("quarkus.durable-batch.node-id", "launcher-node",
                "demo.import.workers", "1", "quarkus.durable-batch.control.poll-interval", "300ms");
        Map<String, String> remote = Map.of("quarkus.durable-batch.node-id", "remote-node",
                "quarkus.durable-batch.partitions.remote-workers.enabled", "true",
                "quarkus.durable-batch.partitions.remote-workers.poll-interval", "200ms",
                "quarkus.durable-batch.partitions.remote-workers.concurrency", "2");
        try (ChildApplication first = ChildApplication.start("remote-launcher", 8295, launcher);
                ChildApplication second = ChildApplication.start("remote-worker", 8296, remote)) {
            long execution = first.given().contentType(ContentType.JSON)
                    .body(Map.of("parameters", Map.of("day", day.toString(), "orders", ORDERS, "files", FILES)))
                    .post("/jobs/importOrders/start").then().statusCode(202).extract().jsonPath().getLong("executionId");
            JsonPath ended = awaitEnd(first, execution);
            assertEquals("COMPLETED", ended.getString("status"), ended.prettify());

            StoredStep parent = step(execution, "import");
            assertEquals("COMPLETED", parent.status());
            List<StoredPartition> partitions = DemoDatabase.shared().partitions(parent.id());
            assertEquals(FILES, partitions.size());
            assertTrue(partitions.stream().allMatch(p -> p.status().equals("COMPLETED")), partitions.toString());
            Set<Long> workers = new HashSet<>();
            DemoDatabase.shared().steps(execution).stream().filter(s -> s.name().equals("importFile"))
                    .forEach(s -> workers.add(s.id()));
            assertEquals(FILES, workers.size(), "one worker step attempt per partition: each ran exactly once");

            Set<Long> local = workersInLog(first.log(), parent.id());
            Set<Long> remoteWorkers = workersInLog(second.log(), parent.id());
            assertTrue(!local.isEmpty(), "the launching process ran partitions");
            assertTrue(!remoteWorkers.isEmpty(), "the other process ran partitions:\n" + second.log());
            Set<Long> both = new HashSet<>(local);
            both.retainAll(remoteWorkers);
            assertEquals(Set.of(), both, "no partition ran in both processes");
            Set<Long> all = new HashSet<>(local);
            all.addAll(remoteWorkers);
            assertEquals(workers, all, "every worker step attempt ran in exactly one of the two processes");
            assertTrue(second.log().contains("Remote worker remote-node/"), "claimed with the other node's owner token");
        }
        assertEquals(ORDERS, importedRows(day));
        assertEquals(ORDERS, distinctIds(day), "no order was imported twice");
        assertEquals(ORDERS, DemoDatabase.shared().count("SELECT orders FROM demo_daily_summary WHERE placed_on = ?", day));
    }
}
