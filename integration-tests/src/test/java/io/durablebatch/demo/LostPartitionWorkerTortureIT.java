package io.durablebatch.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.durablebatch.demo.DemoDatabase.StoredExecution;
import io.durablebatch.demo.DemoDatabase.StoredPartition;
import io.durablebatch.demo.DemoDatabase.StoredRelease;
import io.durablebatch.demo.DemoDatabase.StoredStep;
import io.durablebatch.demo.Torture.Input;

/**
 * Three nodes share one partitioned import, remote partition workers enabled on all of them, with a
 * 3 s lease. A node that runs partitions of it, not the parent's, is killed in the middle of one: once
 * the lease of its worker attempts runs out, their partitions are released (audited) and reclaimed by
 * the workers of the other nodes, resuming from their checkpoints. The job completes in the same
 * execution, without a recovery or a restart, and every order is imported exactly once.
 */
class LostPartitionWorkerTortureIT {

    static final long ORDERS = 400_000;
    static final int FILES = 8;
    static final String DATABASE = "torture_workers";

    private static final Pattern OPENED = Pattern.compile("Step 'importFile' \\(step execution (\\d+)\\) opened its reader");

    @Test
    void theKilledNodesPartitionsAreReclaimedByTheOthersAndTheJobCompletesInTheSameExecution() throws Exception {
        DemoDatabase database = Torture.sharedDatabase(DATABASE);
        Input input = Input.fresh(ORDERS, FILES);
        try (ChildApplication parent = Torture.start("workers-parent", remoteWorkers(database, "workers-parent", 1,
                "demo.import.workers", "1"));
                ChildApplication first = Torture.start("workers-first", remoteWorkers(database, "workers-first", 2));
                ChildApplication second = Torture.start("workers-second", remoteWorkers(database, "workers-second", 2))) {
            long execution = Torture.launch(parent, input);
            long began = System.nanoTime();
            ChildApplication victim = awaitWorkerMidPartition(database, execution, List.of(first, second));
            ChildApplication survivor = victim == first ? second : first;
            victim.kill();
            Set<Long> unfinished = new HashSet<>();
            for (long worker : workersIn(victim)) {
                database.step(worker).filter(step -> !Torture.isResolved(step)).ifPresent(step -> unfinished.add(step.id()));
            }
            assertFalse(unfinished.isEmpty(), "the killed node was running a partition");

            StoredExecution completed = Torture.awaitCompleted(database, execution, Duration.ofMinutes(2),
                    Duration.ofSeconds(20), parent, survivor, victim);
            long instance = database.instanceOf(execution);
            assertEquals(List.of(execution), database.executions(instance).stream().map(StoredExecution::id).toList(),
                    "completed in the same execution, without a restart\n" + Torture.history(database, instance));
            assertEquals(execution, completed.id());
            assertEquals(Optional.empty(), database.recovery(execution), "nothing was recovered");

            StoredStep importStep = database.steps(execution).stream().filter(step -> step.name().equals("import"))
                    .findFirst().orElseThrow();
            assertEquals("COMPLETED", importStep.status());
            List<StoredPartition> partitions = database.partitions(importStep.id());
            assertEquals(FILES, partitions.size());
            assertTrue(partitions.stream().allMatch(p -> p.status().equals("COMPLETED")), partitions.toString());
            assertTrue(partitions.stream().noneMatch(p -> unfinished.contains(p.worker())),
                    "no partition kept the killed node's worker " + partitions);
            Torture.assertStepsResolved(database, execution);
            List<StoredRelease> releases = database.partitionReleases(importStep.id());
            Set<Long> released = new HashSet<>();
            releases.forEach(release -> released.add(release.worker()));
            assertTrue(released.containsAll(unfinished), "the partitions of the killed node's workers " + unfinished
                    + " were released: " + releases);
            Torture.assertImportedExactlyOnce(database, input);
            System.out.printf("lost partition worker: %s killed while running worker(s) %s; releases %s; "
                    + "completed %.1f s after the launch%n", victim.name(), unfinished, releases,
                    (System.nanoTime() - began) / 1e9);
            Torture.discard(database, input);
        }
    }

    private static Map<String, String> remoteWorkers(DemoDatabase database, String nodeId, int concurrency,
            String... more) {
        List<String> properties = new ArrayList<>(List.of("quarkus.durable-batch.partitions.remote-workers.enabled",
                "true", "quarkus.durable-batch.partitions.remote-workers.poll-interval", "200ms",
                "quarkus.durable-batch.partitions.remote-workers.concurrency", Integer.toString(concurrency)));
        properties.addAll(List.of(more));
        return Torture.node(database, nodeId, properties.toArray(String[]::new));
    }

    /** The worker step attempts a node ran, from its log. */
    private static List<Long> workersIn(ChildApplication node) throws Exception {
        Matcher opened = OPENED.matcher(node.log());
        List<Long> workers = new ArrayList<>();
        while (opened.find()) {
            workers.add(Long.parseLong(opened.group(1)));
        }
        return workers;
    }

    /**
     * Waits until one of {@code candidates} runs a partition of which it committed a chunk and has at
     * least 30 % left; returns that node.
     */
    private static ChildApplication awaitWorkerMidPartition(DemoDatabase database, long execution,
            List<ChildApplication> candidates) throws Exception {
        long perPartition = ORDERS / FILES;
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (System.nanoTime() < deadline) {
            for (ChildApplication node : candidates) {
                for (long worker : workersIn(node)) {
                    Optional<StoredStep> step = database.step(worker);
                    if (step.isPresent() && step.get().status().equals("STARTED") && step.get().writeCount() >= 1000
                            && step.get().writeCount() <= perPartition * 7 / 10) {
                        return node;
                    }
                }
            }
            if (!List.of("STARTING", "STARTED").contains(database.executionStatus(execution))) {
                break;
            }
            Thread.sleep(20);
        }
        return fail("no node but the parent's was caught in the middle of a partition:\n"
                + Torture.diagnosis(database, database.instanceOf(execution), candidates.toArray(ChildApplication[]::new)));
    }
}
