package io.durablebatch.deployment.test.partition;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertRefused;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.partition.PartitionFixture.entries;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.Race;
import io.durablebatch.deployment.test.RepositoryFixtures;
import io.durablebatch.deployment.test.StoredState;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.partition.PartitionPlanEntry;
import io.durablebatch.repository.partition.StepPartition;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.test.QuarkusUnitTest;

/** SPEC §7: a partition plan is inserted whole, once, in one statement, and read in key byte order. */
class PartitionPlanTest {

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
    void entryOrderGivesTheOrdinalAndThePlanReadsBackInUnsignedKeyOrder() {
        PartitionFixture job = PartitionFixture.start(given, "plan-order");
        // Signed bytes, a case-insensitive collation and a linguistic collation would all order these
        // differently: only unsigned byte order gives 0x00 < 'B' < 'a' < 0x7f < 0x80 < 0xc3a9 ("é") < 0xff.
        List<PartitionPlanEntry> entries = List.of(entry(0xff), entry(0x80), PartitionPlanEntry.of("a", new byte[] { 1 }),
                entry(0x7f), PartitionPlanEntry.of("é", new byte[0]), PartitionPlanEntry.of("B", new byte[] { 2 }),
                entry(0x00));

        List<StepPartition> created = job.plan(entries);

        List<PartitionPlanEntry> keyOrder = new ArrayList<>(entries);
        keyOrder.sort(PartitionPlanEntry.KEY_ORDER);
        assertEquals(List.of("00", "42", "61", "7f", "80", "c3a9", "ff"),
                keyOrder.stream().map(e -> HexFormat.of().formatHex(e.key())).toList());
        assertEquals(keyOrder, created.stream().map(StepPartition::entry).toList(), "created plan in key order");
        assertEquals(created, job.currentPlan(), "the stored plan reads back the same, in key order");
        for (StepPartition partition : created) {
            assertEquals(entries.indexOf(partition.entry()) + 1, partition.ordinal(), "ordinal = entry position");
            assertEquals(job.parent().id(), partition.parentStepExecutionId());
            assertEquals(ExecutionStatus.STARTING, partition.status());
            assertTrue(partition.isUnassigned());
            assertEquals(Optional.empty(), partition.worker());
            assertEquals(ExitStatus.EXECUTING, partition.exitStatus());
            assertEquals(StepCounters.ZERO, partition.counters());
            assertEquals(ExecutionVersion.INITIAL, partition.version());
        }
    }

    @Test
    void aPlanAtTheBoundIsInsertedInOneStatement() {
        PartitionFixture job = PartitionFixture.start(given, "plan-bound");
        List<PartitionPlanEntry> entries = entries(10_000);
        long before = sql.statementsExecutedOnThisThread();
        List<StepPartition> created = job.plan(entries);
        assertEquals(1, sql.statementsExecutedOnThisThread() - before, "one round trip whatever the plan size");
        assertEquals(10_000, created.size());
        assertArrayEquals(entries.get(9_999).input(), created.get(9_999).entry().input());
    }

    @Test
    void anEmptyPlanIsRefused() {
        PartitionFixture job = PartitionFixture.start(given, "plan-empty");
        assertPlanRefused(job, RepositoryError.PARTITION_PLAN_EMPTY, List.of());
    }

    @Test
    void aPlanOverTheConfiguredBoundIsRefused() {
        PartitionFixture job = PartitionFixture.start(given, "plan-too-large");
        RepositoryException refusal = assertPlanRefused(job, RepositoryError.PARTITION_PLAN_TOO_LARGE,
                entries(10_001));
        assertTrue(refusal.getMessage().contains("max-plan-size=10000"), refusal::getMessage);
    }

    @Test
    void aPlanWithADuplicateKeyIsRefused() {
        PartitionFixture job = PartitionFixture.start(given, "plan-duplicate");
        List<PartitionPlanEntry> entries = new ArrayList<>(entries(50));
        entries.add(PartitionPlanEntry.of("p-00007", "another input".getBytes()));
        RepositoryException refusal = assertPlanRefused(job, RepositoryError.PARTITION_KEY_DUPLICATE, entries);
        assertTrue(refusal.getMessage().contains("entries 7 and 51"), refusal::getMessage);
    }

    @Test
    void aSecondPlanForTheSameParentIsRefused() {
        PartitionFixture job = PartitionFixture.start(given, "plan-exists");
        List<StepPartition> first = job.plan(entries(3));
        assertPlanRefused(job, RepositoryError.PARTITION_PLAN_EXISTS, entries(5));
        assertEquals(first, job.currentPlan());
    }

    @Test
    void aPlanNeedsAStartingOrStartedParent() {
        PartitionFixture job = PartitionFixture.start(given, "plan-parent");
        var completed = given.move(job.parent(),
                LifecycleTransition.to(ExecutionStatus.COMPLETED, now()));
        assertPlanRefused(new PartitionFixture(given, job.execution(), completed),
                RepositoryError.PARTITION_PARENT_NOT_ACTIVE, entries(2));
        assertRefused(RepositoryError.STEP_EXECUTION_NOT_FOUND,
                () -> repository.createStepPartitionPlan(StepExecutionId.of(Long.MAX_VALUE), entries(2)));
    }

    @Test
    void racingPlanCreatorsPublishExactlyOneWholePlan() {
        PartitionFixture job = PartitionFixture.start(given, "plan-race");

        // plans of different sizes: a partial publication would show as a plan of mixed size
        List<Race.Outcome<List<StepPartition>>> outcomes = Race.run(8, racer -> job.plan(entries(100 + racer * 50)));

        assertEquals(Map.of("ok", 1L, "PARTITION_PLAN_EXISTS", 7L), Race.codes(outcomes), "exactly one creator publishes");
        List<List<StepPartition>> won = Race.results(outcomes);
        assertEquals(won.get(0), job.currentPlan(), "the stored plan is the winner's, whole");
    }

    private RepositoryException assertPlanRefused(PartitionFixture job, RepositoryError error,
            List<PartitionPlanEntry> entries) {
        return state.assertRefusedChangingNothing(job.instance(), error,
                () -> repository.createStepPartitionPlan(job.parent().id(), entries));
    }

    private static PartitionPlanEntry entry(int keyByte) {
        byte[] key = { (byte) keyByte };
        return PartitionPlanEntry.of(key, Arrays.copyOf(key, 3));
    }
}
