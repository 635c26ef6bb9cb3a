package io.durablebatch.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.durablebatch.demo.DemoDatabase.StoredExecution;
import io.durablebatch.demo.Torture.Input;
import io.restassured.http.ContentType;

/**
 * A database outage longer than the lease, the most ordinary production event (a managed failover
 * takes 30 to 120 s), on one node and with a second node alive: the database of a private cluster is
 * stopped for 2 and 4 times the lease in the middle of a chunk. The job completes by itself, every
 * order imported once, and no node ends its own sessions (it once did, every sweep, for ever). And an
 * application's own write inside a chunk, longer than the lease, completes in the first attempt.
 */
class OwnLeaseOutageTortureIT {

    static final long ORDERS = 200_000;
    static final int FILES = 4;

    /** What a node logs when it ends the sessions of an owner whose lease ran out. */
    private static final Pattern ENDED = Pattern.compile("Ended \\d+ database session\\(s\\) of (\\S+) ");

    private static PrivatePostgres cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = PrivatePostgres.start("own-lease");
    }

    @AfterAll
    static void removeCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @ParameterizedTest(name = "{0} node(s), database down {1} leases")
    @CsvSource({ "1, 2", "1, 4", "2, 2", "2, 4" })
    void theJobCompletesByItselfAfterAnOutageLongerThanTheLease(int nodes, int leases) throws Exception {
        assumeTrue(nodes == 1 || leases == 4 || Torture.full(), "with -Dtorture=full");
        DemoDatabase database = cluster.database();
        Input input = Input.fresh(ORDERS, FILES);
        String name = "own-lease-" + nodes + "-nodes-" + leases + "-leases";
        try (ChildApplication owner = Torture.start(name + "-owner", Torture.node(database, name + "-owner"));
                ChildApplication peer = nodes == 2 ? Torture.start(name + "-peer", Torture.node(database, name + "-peer"))
                        : null) {
            ChildApplication[] all = peer == null ? new ChildApplication[] { owner }
                    : new ChildApplication[] { owner, peer };
            if (peer != null) {
                assertEquals(2, bootIds(database).size(), "two processes of one packaged build draw their own "
                        + "boot ids: " + database.sessions());
            }
            long execution = Torture.launch(owner, input);
            Torture.awaitRows(database, input, execution, ORDERS / 4);
            Duration down = Torture.LEASE.multipliedBy(leases);
            long began = System.nanoTime();
            cluster.crash();
            Thread.sleep(down.toMillis());
            cluster.start();

            StoredExecution completed = Torture.awaitCompleted(database, execution, Duration.ofMinutes(3),
                    Duration.ofSeconds(30), all);
            long instance = database.instanceOf(execution);
            List<StoredExecution> executions = database.executions(instance);
            for (StoredExecution attempt : executions) {
                Torture.assertStepsResolved(database, attempt.id());
            }
            Torture.assertImportedExactlyOnce(database, input);
            for (ChildApplication node : all) {
                assertTrue(node.isAlive(), node.name() + " survived:\n" + Torture.story(node, 40));
                String own = node.name().substring(node.name().lastIndexOf('/') + 1) + "/";
                assertFalse(endedOwners(node).stream().anyMatch(ended -> ended.startsWith(own)),
                        node.name() + " ended sessions of its own process:\n" + Torture.story(node, 40));
            }
            System.out.printf("own lease, %d node(s), database down %d s (%d leases): completed %.1f s after the "
                    + "outage began; attempts %s%n", nodes, down.toSeconds(), leases, (System.nanoTime() - began) / 1e9,
                    executions.stream().map(e -> e.id() + " " + e.status()).collect(Collectors.joining(", ")));
        }
    }

    /**
     * A write of the application's own inside a chunk, longer than the lease (45 s here, 10 minutes
     * with -Dtorture=full, past the 300 s socket timeout the extension once imposed on the datasource),
     * with a chunk transaction timeout that allows it: the heartbeat keeps the lease, nothing cuts the
     * statement, and the job completes in its first attempt.
     */
    @Test
    void anApplicationsLongWriteInsideAChunkCompletes() throws Exception {
        Duration write = Torture.full() ? Duration.ofMinutes(10) : Duration.ofSeconds(45);
        DemoDatabase database = cluster.database();
        String run = UUID.randomUUID().toString();
        try (ChildApplication node = Torture.start("own-lease-long-write", Torture.node(database, "own-lease-long-write",
                "quarkus.transaction-manager.default-transaction-timeout", write.plusMinutes(2).toSeconds() + "s"))) {
            long execution = node.given().contentType(ContentType.JSON)
                    .body(Map.of("parameters", Map.of("run", run, "items", 100, "writeSeconds", write.toSeconds())))
                    .post("/jobs/longWrite/start").then().statusCode(202).extract().jsonPath().getLong("executionId");
            long began = System.nanoTime();
            StoredExecution completed = Torture.awaitCompleted(database, execution, write.plusMinutes(3),
                    Duration.ofSeconds(30), node);
            assertEquals(execution, completed.id(), "completed in its first attempt:\n"
                    + Torture.history(database, database.instanceOf(execution)));
            assertEquals(100, database.count("SELECT count(DISTINCT id) FROM demo_long_write WHERE run = ?", run));
            assertEquals(100, database.count("SELECT count(*) FROM demo_long_write WHERE run = ?", run));
            System.out.printf("long write of %d s inside a chunk, lease %s: completed after %.1f s%n", write.toSeconds(),
                    Torture.LEASE, (System.nanoTime() - began) / 1e9);
        }
    }

    /** The boot ids of the processes whose batch sessions are open on the database. */
    private static Set<String> bootIds(DemoDatabase database) throws Exception {
        Set<String> ids = new HashSet<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (ids.size() < 2 && System.nanoTime() < deadline) {
            try (Connection connection = DriverManager.getConnection(database.url(), database.username(),
                    database.password());
                    Statement statement = connection.createStatement();
                    ResultSet names = statement.executeQuery("SELECT application_name FROM pg_stat_activity "
                            + "WHERE application_name LIKE 'durable-batch %'")) {
                while (names.next()) {
                    ids.add(names.getString(1).split(" ")[1]);
                }
            }
            Thread.sleep(200);
        }
        return ids;
    }

    /** The owners whose sessions the node ended, as its log says. */
    private static Set<String> endedOwners(ChildApplication node) throws Exception {
        Set<String> owners = new HashSet<>();
        Matcher ended = ENDED.matcher(node.log());
        while (ended.find()) {
            owners.add(ended.group(1));
        }
        return owners;
    }
}
