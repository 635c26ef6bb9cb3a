package io.durablebatch.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.durablebatch.demo.DemoDatabase.StoredExecution;
import io.durablebatch.demo.DemoDatabase.StoredOperatorRequest;
import io.durablebatch.demo.DemoDatabase.StoredRecovery;
import io.durablebatch.demo.Torture.Input;
import io.durablebatch.runtime.schema.SchemaMigrations;
import io.restassured.http.ContentType;

/**
 * Two nodes reach their database only through PgBouncer in transaction pooling mode (a private
 * PostgreSQL cluster, a pooler of its own in front of it, fewer server connections than the nodes'
 * pools hold): they start together on an empty database (one migrates, the other waits for it), a
 * long import renews its lease through the pooler and is stopped and restarted by the operator,
 * and a killed owner's import is recovered and restarted by the other node by itself. Every
 * import ends with each order imported exactly once.
 * <p>
 * Skipped, saying so, where no pgbouncer binary can be found; {@code .ci/run} installs it and sets
 * {@code PGBOUNCER_REQUIRED=1}, which turns the skip into a failure.
 */
class PgBouncerTortureIT {

    static final long ORDERS = 300_000;
    static final int FILES = 4;

    /**
     * The torture tests' frozen-owner limit (5 s) is for {@code SuspendedOwnerTortureIT}; here a
     * transaction of the operator API that waits for CPU on a loaded machine must not die of it.
     */
    static final String IDLE_IN_TRANSACTION = "60s";

    /**
     * Twice the torture tests' lease: a transaction may also wait in the pooler's queue, and this
     * test is about the pooler, not about how short a lease may be.
     */
    static final Duration LEASE = Torture.LEASE.multipliedBy(2);

    /** Server connections behind the pooler: fewer than the two nodes' pools together. */
    static final int SERVER_CONNECTIONS = 8;

    @Test
    void behindPgBouncerInTransactionModeLaunchesLeasesStopsRestartsAndRecoveriesHoldWithExactRows() throws Exception {
        boolean available = PgBouncer.binary().isPresent();
        if (!available && "1".equals(System.getenv("PGBOUNCER_REQUIRED"))) {
            throw new IllegalStateException("PGBOUNCER_REQUIRED=1 but no pgbouncer binary: install Debian's package "
                    + "pgbouncer or name the binary with -Dpgbouncer.bin");
        }
        assumeTrue(available, "no pgbouncer on this machine (install Debian's package pgbouncer, or name the "
                + "binary with -Dpgbouncer.bin): the PgBouncer run is skipped");
        try (PrivatePostgres cluster = PrivatePostgres.start("pgbouncer");
                PgBouncer bouncer = PgBouncer.start("pgbouncer", cluster, SERVER_CONNECTIONS)) {
            DemoDatabase direct = cluster.database();
            DemoDatabase pooled = DemoDatabase.at(bouncer.jdbcUrl());
            List<ChildApplication> nodes = startTogether(pooled, "pgbouncer-a", "pgbouncer-b");
            try {
                ChildApplication a = nodes.get(0);
                ChildApplication b = nodes.get(1);
                assertEquals((long) SchemaMigrations.SCRIPTS.size(), direct.count("SELECT count(*) FROM dbatch_schema_history "
                        + "WHERE type = 'SQL' AND success"), "both nodes migrated one schema, once");
                stopAndRestartByTheOperator(direct, a, b);
                killedOwnerRecoveredAndRestartedByTheOtherNode(direct, b, a);
                String pooler = bouncer.log();
                assertTrue(!pooler.contains("prepared statement"), "no prepared statement crossed clients:\n" + pooler);
            } finally {
                for (ChildApplication node : nodes) {
                    node.close();
                }
            }
        }
    }

    /**
     * An import that runs for several leases on {@code owner} (its lease renewed through the pooler,
     * never recovered), stopped by the operator, restarted on {@code other} by the operator.
     */
    private static void stopAndRestartByTheOperator(DemoDatabase database, ChildApplication owner,
            ChildApplication other) throws Exception {
        Input input = Input.fresh(ORDERS, FILES);
        long began = System.nanoTime();
        long execution = Torture.launch(owner, input);
        Set<Long> leaseExpiries = new TreeSet<>();
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        // the lease is renewed while the import runs: watch it move, over more than two leases
        while (Torture.importedRows(database, input.day()) < ORDERS / 2 || leaseExpiries.size() < 3) {
            StoredExecution stored = database.executions(database.instanceOf(execution)).get(0);
            assertTrue(stored.active() && System.nanoTime() < deadline, "the import ended before it was stopped, or "
                    + "its lease was not renewed (" + leaseExpiries.size() + " expiries seen):\n"
                    + Torture.diagnosis(database, database.instanceOf(execution), owner, other));
            if (stored.leaseExpiresAt() != null) {
                leaseExpiries.add(stored.leaseExpiresAt().getTime());
            }
            Thread.sleep(LEASE.toMillis() / 4);
        }
        owner.given().contentType(ContentType.JSON).body(Map.of())
                .post("/jobs/executions/{id}/stop", execution).then().statusCode(202);
        awaitStatus(database, execution, "STOPPED");
        long committed = Torture.importedRows(database, input.day());
        long restarted = other.given().contentType(ContentType.JSON).body(Map.of())
                .post("/jobs/executions/{id}/restart", execution).then().statusCode(202).extract().jsonPath()
                .getLong("executionId");
        StoredExecution completed = Torture.awaitCompleted(database, execution, Duration.ofMinutes(3),
                Duration.ofSeconds(30), owner, other);
        long instance = database.instanceOf(execution);
        assertEquals(restarted, completed.id());
        assertEquals(List.of("STOPPED", "COMPLETED"), database.executions(instance).stream()
                .map(StoredExecution::status).toList(), Torture.history(database, instance));
        for (StoredExecution attempt : database.executions(instance)) {
            assertEquals("not recovered", database.recovery(attempt.id()).map(StoredRecovery::decision)
                    .orElse("not recovered"), "execution " + attempt.id() + " kept its lease");
        }
        Torture.assertStepsResolved(database, execution);
        Torture.assertImportedExactlyOnce(database, input);
        System.out.printf("pgbouncer: execution %d renewed its lease %d times in %d rows, stopped at %d rows, "
                + "restarted by the operator as %d on %s, completed %.1f s after the launch%n", execution,
                leaseExpiries.size() - 1, ORDERS / 2, committed, restarted, other.name(), (System.nanoTime() - began) / 1e9);
        Torture.discard(database, input);
    }

    /** kill -9 of {@code owner} mid-import: {@code survivor} recovers the execution and restarts it by itself. */
    private static void killedOwnerRecoveredAndRestartedByTheOtherNode(DemoDatabase database, ChildApplication owner,
            ChildApplication survivor) throws Exception {
        Input input = Input.fresh(ORDERS, FILES);
        long began = System.nanoTime();
        long killed = Torture.launch(owner, input);
        Torture.awaitRows(database, input, killed, ORDERS / 4);
        owner.kill();
        long killedAt = System.nanoTime();
        StoredExecution completed = Torture.awaitCompleted(database, killed, Duration.ofMinutes(3),
                Duration.ofSeconds(30), survivor, owner);
        long instance = database.instanceOf(killed);
        assertEquals(List.of("FAILED", "COMPLETED"), database.executions(instance).stream()
                .map(StoredExecution::status).toList(), Torture.history(database, instance));
        assertEquals("system:lease OWNER_LOST FAILED",
                database.recovery(killed).map(StoredRecovery::decision).orElse("not recovered"));
        List<StoredOperatorRequest> restarts = database.operatorRequests(instance).stream()
                .filter(request -> request.action().equals("RESTART")).toList();
        assertEquals(1, restarts.size(), restarts::toString);
        assertEquals("system:lease", restarts.get(0).actor(), "restarted by the kernel itself");
        assertTrue(survivor.log().contains("execution " + completed.id() + " (attempt 2) started"),
                "the surviving node ran the restart\n" + Torture.story(survivor, 40));
        Torture.assertStepsResolved(database, killed);
        Torture.assertImportedExactlyOnce(database, input);
        assertTrue(survivor.isAlive(), "the survivor lives:\n" + Torture.story(survivor, 40));
        System.out.printf("pgbouncer: kill -9 of %s at %d rows or more; execution %d recovered and restarted as %d "
                + "on %s, completed %.1f s after the kill (%.1f s after the launch)%n", owner.name(), ORDERS / 4, killed,
                completed.id(), survivor.name(), (System.nanoTime() - killedAt) / 1e9, (System.nanoTime() - began) / 1e9);
        Torture.discard(database, input);
    }

    /** Both nodes started at once on the empty database behind the pooler: both migrate, one waits for the other. */
    private static List<ChildApplication> startTogether(DemoDatabase pooled, String... names) throws Exception {
        ExecutorService starting = Executors.newFixedThreadPool(names.length);
        try {
            List<Future<ChildApplication>> started = new ArrayList<>();
            for (String name : names) {
                started.add(starting.submit(() -> Torture.start(name, Torture.node(pooled, name,
                        "quarkus.durable-batch.lease.duration", LEASE.toMillis() + "ms",
                        "quarkus.durable-batch.statements.idle-in-transaction-timeout", IDLE_IN_TRANSACTION))));
            }
            List<ChildApplication> nodes = new ArrayList<>();
            try {
                for (Future<ChildApplication> node : started) {
                    nodes.add(node.get(3, TimeUnit.MINUTES));
                }
                return nodes;
            } catch (Exception | Error e) {
                // the nodes that got ready, and those still starting: none may outlive the test
                for (Future<ChildApplication> node : started) {
                    try {
                        node.get(ChildApplication.READY_TIMEOUT.toSeconds(), TimeUnit.SECONDS).close();
                    } catch (Exception notStarted) {
                        e.addSuppressed(notStarted);
                    }
                }
                throw e;
            }
        } finally {
            starting.shutdown();
        }
    }

    private static void awaitStatus(DemoDatabase database, long execution, String status) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (!status.equals(database.executionStatus(execution))) {
            assertTrue(System.nanoTime() < deadline, "execution " + execution + " is not " + status + " but "
                    + database.executionStatus(execution));
            Thread.sleep(100);
        }
    }
}
