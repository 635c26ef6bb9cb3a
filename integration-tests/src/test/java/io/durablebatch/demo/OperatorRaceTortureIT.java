package io.durablebatch.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.durablebatch.demo.DemoDatabase.StoredExecution;
import io.restassured.http.ContentType;

/**
 * Operators racing on one instance from two JVMs (issue 26): eight threads, half on each of two
 * nodes of the packaged demo sharing one repository, call stop, restart, recover and abandon on the
 * instance's latest attempt at once, round after round. The decisions on an instance are made under
 * the lock of its row, so the tables keep its rules whatever the interleaving: no attempt after an
 * ABANDONED one, at most one active attempt. Every attempt fails at once (its day is not a date),
 * so each round starts from a FAILED, restartable latest attempt. 10 rounds in the build, 30 with
 * {@code -Dtorture=full}.
 */
class OperatorRaceTortureIT {

    private static final int THREADS = 8;

    @Test
    void racingOperatorsOnTwoNodesNeverRunAnAbandonedInstanceAgain() throws Exception {
        int rounds = Torture.full() ? 30 : 10;
        // the shared test database: the invariant is checked on this test's instances only
        DemoDatabase database = DemoDatabase.shared();
        Map<String, Integer> answers = new TreeMap<>();
        List<Long> instances = new ArrayList<>();
        try (ChildApplication a = Torture.start("race-a", Torture.node(database, "race-a"));
                ChildApplication b = Torture.start("race-b", Torture.node(database, "race-b"))) {
            Long instance = null;
            for (int round = 0; round < rounds; round++) {
                StoredExecution latest = instance == null ? null : latestEnded(database, instance);
                if (latest == null || latest.status().equals("ABANDONED")) {
                    long first = launchFailing(a);
                    instance = database.instanceOf(first);
                    instances.add(instance);
                    latest = latestEnded(database, instance);
                }
                StoredExecution target = latest;
                for (int status : race(racer -> act(racer % 2 == 0 ? a : b, racer, target))) {
                    answers.merge(Integer.toString(status), 1, Integer::sum);
                }
            }
            latestEnded(database, instance);
        }
        System.out.println("two-node operator race over " + rounds + " rounds, HTTP answers: " + answers);
        assertTrue(answers.containsKey("200") || answers.containsKey("202"), "some calls succeed: " + answers);

        String ids = instances.stream().map(String::valueOf).reduce((x, y) -> x + "," + y).orElseThrow();
        assertEquals(0, database.count("""
                SELECT count(*) FROM %PREFIX%job_execution a
                JOIN %PREFIX%job_execution l ON l.job_instance_id = a.job_instance_id AND l.attempt > a.attempt
                WHERE a.status = 'ABANDONED' AND a.job_instance_id IN (""" + ids + ")"),
                "no attempt follows an ABANDONED one");
        assertEquals(0, database.count("""
                SELECT count(*) FROM (SELECT job_instance_id FROM %PREFIX%job_execution
                                      WHERE status IN ('STARTING', 'STARTED', 'STOPPING')
                                        AND job_instance_id IN (""" + ids + """
                ) GROUP BY job_instance_id HAVING count(*) > 1) twice"""),
                "at most one active attempt per instance");
    }

    /** A fresh instance of the demo's import whose attempts fail at once: its day is not a date. */
    private static long launchFailing(ChildApplication node) {
        Map<String, Object> parameters = Map.of("day", "not-a-day-" + UUID.randomUUID(), "orders", 1, "files", 1);
        return node.given().contentType(ContentType.JSON).body(Map.of("parameters", parameters))
                .post("/jobs/importOrders/start").then().statusCode(202).extract().jsonPath().getLong("executionId");
    }

    /** Racer {@code racer}'s call on {@code node}: stop, restart, recover or abandon; its HTTP status. */
    private static int act(ChildApplication node, int racer, StoredExecution latest) {
        String path = "/jobs/executions/" + latest.id() + "/";
        Object body = switch ((racer / 2) % 4) {
            case 2 -> Map.of("observedVersion", latest.version(), "resolution", racer < 4 ? "FAILED" : "ABANDONED",
                    "reason", "RACE");
            default -> Map.of();
        };
        String action = switch ((racer / 2) % 4) {
            case 0 -> "stop";
            case 1 -> "restart";
            case 2 -> "recover";
            default -> "abandon";
        };
        return node.given().contentType(ContentType.JSON).body(body).post(path + action)
                .statusCode();
    }

    /** The instance's latest attempt once it ended, waiting for it. */
    private static StoredExecution latestEnded(DemoDatabase database, long instance) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            List<StoredExecution> executions = database.executions(instance);
            StoredExecution latest = executions.get(executions.size() - 1);
            if (executions.stream().noneMatch(StoredExecution::active) && !latest.status().equals("UNKNOWN")) {
                return latest;
            }
            if (System.nanoTime() > deadline) {
                fail("instance " + instance + " did not settle: " + executions);
            }
            Thread.sleep(20);
        }
    }

    @FunctionalInterface
    private interface Racer {
        int run(int racer) throws Exception;
    }

    /** Runs the racers on threads released together; their HTTP statuses. */
    private static List<Integer> race(Racer racer) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<Integer>> futures = new ArrayList<>();
            for (int i = 0; i < THREADS; i++) {
                int index = i;
                futures.add(pool.submit(() -> {
                    start.await();
                    return racer.run(index);
                }));
            }
            start.countDown();
            List<Integer> statuses = new ArrayList<>();
            for (Future<Integer> future : futures) {
                statuses.add(future.get(60, TimeUnit.SECONDS));
            }
            return statuses;
        } finally {
            pool.shutdownNow();
        }
    }
}
