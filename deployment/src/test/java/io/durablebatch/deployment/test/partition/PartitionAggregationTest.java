package io.durablebatch.deployment.test.partition;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertRefused;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.deployment.test.partition.PartitionFixture.counters;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryFixtures;
import io.durablebatch.deployment.test.StoredState;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.partition.PartitionPlanEntry;
import io.durablebatch.repository.partition.StepPartition;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.test.QuarkusUnitTest;

/** SPEC §7: the parent step takes the key-ordered aggregate of its partitions, once none is active. */
class PartitionAggregationTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp(PartitionFixture.class);

    @Inject
    KernelRepository repository;

    @Inject
    RepositoryFixtures given;

    @Inject
    StoredState state;

    @Inject
    MetadataSql sql;

    @Test
    void failedOutranksStoppedAndCompletedAndTiesGoToTheFirstKey() {
        PartitionFixture job = PartitionFixture.start(given, "aggregate-failed");
        // entry order differs from key order: "d" is entered before "c"
        job.plan(List.of(entry("d"), entry("a"), entry("c"), entry("b")));
        job.run(byKey(job, "a"), ExecutionStatus.COMPLETED, "OK", counters(10, 10));
        job.run(byKey(job, "b"), ExecutionStatus.STOPPED, "HALTED", counters(20, 15));
        job.run(byKey(job, "d"), ExecutionStatus.FAILED, "FAILED_D", counters(30, 0));
        job.run(byKey(job, "c"), ExecutionStatus.FAILED, "FAILED_C", counters(40, 1));

        Instant at = now();
        long before = sql.statementsExecutedOnThisThread();
        StepExecution parent = tx(() -> repository.aggregateStepPartitions(job.parent().id(), job.parent().version(), at));
        assertEquals(1, sql.statementsExecutedOnThisThread() - before, "an aggregation is one statement");

        assertEquals(ExecutionStatus.FAILED, parent.status());
        assertEquals(new ExitStatus("FAILED_C", "ended as FAILED_C"), parent.exitStatus(),
                "the first FAILED partition in key order, not in entry order");
        assertEquals(new StepCounters(100, 26, 0, 0, 0, 0, 4, 0), parent.counters());
        assertEquals("io.durablebatch.PartitionFailure", parent.failure().orElseThrow().type());
        assertTrue(parent.failure().orElseThrow().message().startsWith("2 of 4 partitions FAILED"),
                parent.failure().orElseThrow().message());
        assertEquals(Optional.of(at), parent.endedAt());
        assertEquals(job.parent().version().next(), parent.version());
        assertEquals(parent, tx(() -> repository.getStepExecution(job.parent().id())).orElseThrow());
    }

    @Test
    void stoppedOutranksCompleted() {
        PartitionFixture job = PartitionFixture.start(given, "aggregate-stopped");
        job.plan(List.of(entry("a"), entry("b"), entry("c")));
        job.run(byKey(job, "a"), ExecutionStatus.COMPLETED, "OK", counters(1, 1));
        job.run(byKey(job, "c"), ExecutionStatus.STOPPED, "HALTED_C", counters(2, 2));
        job.run(byKey(job, "b"), ExecutionStatus.STOPPED, "HALTED_B", counters(3, 3));
        StepExecution stopping = given.move(job.parent(), LifecycleTransition.to(ExecutionStatus.STOPPING,
                now()));

        StepExecution parent = tx(() -> repository.aggregateStepPartitions(stopping.id(), stopping.version(), now()));
        assertEquals(ExecutionStatus.STOPPED, parent.status());
        assertEquals("HALTED_B", parent.exitStatus().code());
        assertEquals(6, parent.counters().readCount());
        assertEquals(Optional.empty(), parent.failure());
    }

    @Test
    void allCompletedCompletesTheParentWithTheFirstKeysExitStatus() {
        PartitionFixture job = PartitionFixture.start(given, "aggregate-completed");
        job.plan(List.of(entry("b"), entry("a")));
        job.run(byKey(job, "b"), ExecutionStatus.COMPLETED, "OK_B", counters(5, 4));
        job.run(byKey(job, "a"), ExecutionStatus.COMPLETED, "OK_A", counters(6, 6));

        StepExecution parent = tx(() -> repository.aggregateStepPartitions(job.parent().id(), job.parent().version(),
                now()));
        assertEquals(ExecutionStatus.COMPLETED, parent.status());
        assertEquals("OK_A", parent.exitStatus().code());
        assertEquals(new StepCounters(11, 10, 0, 0, 0, 0, 2, 0), parent.counters());
    }

    @Test
    void anUnassignedOrRunningPartitionRefusesTheAggregationAndNothingChanges() {
        PartitionFixture job = PartitionFixture.start(given, "aggregate-active");
        job.plan(List.of(entry("a"), entry("b"), entry("c")));
        job.run(byKey(job, "a"), ExecutionStatus.COMPLETED, "OK", counters(1, 1));
        assertAggregationRefusedUnchanged(job, RepositoryError.PARTITION_CHILD_ACTIVE); // b and c unassigned

        StepExecution worker = job.worker();
        job.assign(byKey(job, "b"), worker);
        job.run(byKey(job, "c"), ExecutionStatus.COMPLETED, "OK", counters(1, 1));
        assertAggregationRefusedUnchanged(job, RepositoryError.PARTITION_CHILD_ACTIVE); // b running

        // the worker ended, but its partition is not completed yet: the partition is still running
        given.endStep(worker, ExecutionStatus.COMPLETED, "OK", counters(1, 1));
        assertAggregationRefusedUnchanged(job, RepositoryError.PARTITION_CHILD_ACTIVE);
    }

    @Test
    void theParentMovesOnlyAsTheLifecycleTableAllows() {
        PartitionFixture job = PartitionFixture.start(given, "aggregate-lifecycle");
        job.plan(List.of(entry("a")));
        job.run(byKey(job, "a"), ExecutionStatus.STOPPED, "HALTED", counters(1, 1));
        // STARTED cannot move to STOPPED directly: the parent must be STOPPING first
        assertAggregationRefusedUnchanged(job, RepositoryError.ILLEGAL_TRANSITION);
    }

    @Test
    void aStaleVersionOrAParentWithoutPlanIsRefused() {
        PartitionFixture job = PartitionFixture.start(given, "aggregate-refusals");
        assertAggregationRefusedUnchanged(job, RepositoryError.PARTITION_PLAN_NOT_FOUND);
        job.plan(List.of(entry("a")));
        job.run(byKey(job, "a"), ExecutionStatus.COMPLETED, "OK", counters(1, 1));
        StepExecution progressed = given.move(job.parent(), LifecycleTransition.progress(now(),
                io.durablebatch.execution.Checkpoint.of(new byte[] { 1 }), StepCounters.ZERO));
        assertAggregationRefusedUnchanged(job, RepositoryError.VERSION_CONFLICT);
        assertRefused(RepositoryError.STEP_EXECUTION_NOT_FOUND, () -> repository.aggregateStepPartitions(
                StepExecutionId.of(Long.MAX_VALUE), progressed.version(), now()));
        assertEquals(ExecutionStatus.COMPLETED, tx(() -> repository.aggregateStepPartitions(progressed.id(),
                progressed.version(), now())).status());
    }

    private void assertAggregationRefusedUnchanged(PartitionFixture job, RepositoryError error) {
        state.assertRefusedChangingNothing(job.instance(), error,
                () -> repository.aggregateStepPartitions(job.parent().id(), job.parent().version(), now()));
    }

    private static StepPartition byKey(PartitionFixture job, String key) {
        return job.currentPlan().stream().filter(p -> p.entry().sameKey(entry(key))).findFirst().orElseThrow();
    }

    private static PartitionPlanEntry entry(String key) {
        return PartitionPlanEntry.of(key, key.getBytes(StandardCharsets.UTF_8));
    }
}
