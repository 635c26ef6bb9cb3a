package io.durablebatch.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import io.durablebatch.demo.DemoDatabase.StoredExecution;
import io.durablebatch.demo.DemoDatabase.StoredOperatorRequest;
import io.durablebatch.demo.DemoDatabase.StoredRecovery;
import io.durablebatch.demo.DemoDatabase.StoredStep;
import io.durablebatch.demo.Torture.Input;

/**
 * kill -9 at random points of the partitioned chunk job, {@link Torture#trials()} times: two nodes
 * share the database with a 3 s lease; the owner of a running import is killed at a random point:
 * one trial in five within 300 ms of the launch (claiming, generating the input, planning the
 * partitions), the others at a random row count up to 60 % imported (the rest takes about a
 * second: a later kill may come after the end). The other node's sweeper notices the lease ran out,
 * recovers the execution as FAILED ({@code system:lease}, {@code OWNER_LOST}) and restarts it by
 * itself, resuming from the committed checkpoints, with no call from the test. Every order ends up
 * imported exactly once. A fresh node replaces the killed one, and the roles alternate: the node that
 * recovered this trial's execution owns, and loses, the next one.
 */
class KilledOwnerTortureIT {

    static final long ORDERS = 100_000;
    static final int FILES = 4;
    static final String DATABASE = "torture_kill";

    @Test
    void anotherNodeRecoversAndRestartsAKilledOwnerByItselfAndEveryOrderIsImportedOnce() throws Exception {
        SplittableRandom random = new SplittableRandom(Torture.seed());
        DemoDatabase database = Torture.sharedDatabase(DATABASE);
        int trials = Torture.trials();
        int started = 0;
        ChildApplication[] nodes = new ChildApplication[2];
        try {
            for (int slot = 0; slot < nodes.length; slot++) {
                nodes[slot] = startNode(database, ++started);
            }
            for (int trial = 1; trial <= trials; trial++) {
                int slot = (trial - 1) % 2;
                ChildApplication owner = nodes[slot];
                ChildApplication survivor = nodes[1 - slot];
                Input input = Input.fresh(ORDERS, FILES);
                boolean atLaunch = random.nextInt(5) == 0;
                long killAt = atLaunch ? random.nextLong(300) : 1 + random.nextLong(ORDERS * 6 / 10);
                long began = System.nanoTime();

                long killed = Torture.launch(owner, input);
                if (atLaunch) {
                    Thread.sleep(killAt);
                } else {
                    Torture.awaitRows(database, input, killed, killAt);
                }
                owner.kill();
                long killedAt = System.nanoTime();
                // a commit the dead process sent before it died may still be landing
                Thread.sleep(300);
                long committed = Torture.importedRows(database, input.day());
                String left = database.executionStatus(killed);
                String trialName = "trial " + trial + "/" + trials + " (killed "
                        + (atLaunch ? killAt + " ms after the launch, " : "") + "at " + committed + " rows)";
                assertTrue(List.of("STARTING", "STARTED").contains(left),
                        trialName + ": killed too late, execution " + killed + " is " + left);

                double runningAgain = awaitRestartRunning(database, killed, killedAt);
                StoredExecution completed = Torture.awaitCompleted(database, killed, Duration.ofMinutes(2),
                        Duration.ofSeconds(20), survivor, owner);
                long instance = database.instanceOf(killed);
                assertEquals(List.of("FAILED", "COMPLETED"),
                        database.executions(instance).stream().map(StoredExecution::status).toList(),
                        trialName + ": one recovered attempt, one restart that completed\n"
                                + Torture.history(database, instance));
                assertEquals("system:lease OWNER_LOST FAILED",
                        database.recovery(killed).map(StoredRecovery::decision).orElse("not recovered"),
                        trialName + ": recovered by a lease sweeper");
                Torture.assertStepsResolved(database, killed);
                List<StoredOperatorRequest> restarts = database.operatorRequests(instance).stream()
                        .filter(request -> request.action().equals("RESTART")).toList();
                assertEquals(1, restarts.size(), trialName + ": one restart " + restarts);
                assertEquals("system:lease", restarts.get(0).actor(), trialName + ": restarted by the kernel itself");
                assertEquals(completed.id(), restarts.get(0).jobExecutionId(), trialName);
                assertTrue(survivor.log().contains("execution " + completed.id() + " (attempt 2) started"),
                        trialName + ": the surviving node ran the restart\n" + Torture.story(survivor, 40));
                assertEquals(ORDERS - committed, readByWorkers(database, completed.id()),
                        trialName + ": the restart read only what was not committed");
                Torture.assertImportedExactlyOnce(database, input);

                System.out.printf("kill -9 %s: %s killed (execution %d %s), restarted as execution %d on %s, "
                        + "running again %.2f s after the kill, completed %.1f s after the launch%n", trialName,
                        owner.name(), killed, left, completed.id(), survivor.name(), runningAgain,
                        (System.nanoTime() - began) / 1e9);
                Torture.discard(database, input);
                nodes[slot] = startNode(database, ++started);
            }
        } finally {
            for (ChildApplication node : nodes) {
                if (node != null) {
                    node.close();
                }
            }
        }
    }

    /**
     * Seconds from the kill until the restart of {@code killed} runs (STARTED, or already ended),
     * polled every 20 ms: the figure the lease and the sweep interval bound.
     */
    private static double awaitRestartRunning(DemoDatabase database, long killed, long killedAt) throws Exception {
        long instance = database.instanceOf(killed);
        long deadline = killedAt + Duration.ofMinutes(2).toNanos();
        while (System.nanoTime() < deadline) {
            boolean running = database.executions(instance).stream()
                    .anyMatch(execution -> execution.id() != killed && !execution.status().equals("STARTING"));
            if (running) {
                return (System.nanoTime() - killedAt) / 1e9;
            }
            Thread.sleep(20);
        }
        return Double.NaN; // awaitCompleted reports what happened instead
    }

    private static ChildApplication startNode(DemoDatabase database, int number) throws Exception {
        String name = "kill9-node-" + number;
        return Torture.start(name, Torture.node(database, name));
    }

    private static long readByWorkers(DemoDatabase database, long execution) throws Exception {
        return database.steps(execution).stream().filter(step -> step.name().equals("importFile"))
                .mapToLong(StoredStep::readCount).sum();
    }
}
