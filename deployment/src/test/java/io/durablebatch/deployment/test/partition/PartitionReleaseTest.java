package io.durablebatch.deployment.test.partition;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertStatements;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.deployment.test.partition.PartitionFixture.counters;
import static io.durablebatch.deployment.test.partition.PartitionFixture.entries;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.deployment.test.Race;
import io.durablebatch.deployment.test.RepositoryFixtures;
import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.ExecutionFailure;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.partition.StepPartition;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.partition.PartitionLeaseStore;
import io.durablebatch.runtime.partition.PlanSummary;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A partition whose worker let its lease run out (its process died) is released by the parent's one
 * statement per poll: the worker is fenced off as FAILED, the partition is unassigned again naming
 * the worker whose checkpoint the next one resumes, and the release is audited, exactly once whoever
 * polls. Leases are judged on the database clock; here they are run out by moving them into the past.
 */
class PartitionReleaseTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp(PartitionFixture.class);

    @Inject
    KernelRepository repository;

    @Inject
    RepositoryFixtures given;

    @Inject
    PartitionLeaseStore leases;

    @Inject
    MetadataSql sql;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    RepositoryTables tables;

    @Test
    void aPartitionWhoseWorkerLostItsLeaseIsReleasedInOneStatementAndAudited() throws SQLException {
        PartitionFixture job = PartitionFixture.start(given, "release");
        List<StepPartition> plan = job.plan(entries(3));
        StepExecution dead = job.worker();
        StepExecution live = job.worker();
        StepPartition lost = job.assign(plan.get(0), dead);
        job.assign(plan.get(1), live);
        expireLeases(dead);

        PlanSummary summary = tx(() -> assertStatements(sql, 1, () -> leases.poll(job.parent().id(), now())));

        assertEquals(new PlanSummary(2, 1, 0, 0, 0, 1), summary, "the released partition counts as unassigned");
        StepPartition released = job.ordinal(1);
        assertEquals(ExecutionStatus.STARTING, released.status());
        assertEquals(Optional.empty(), released.worker());
        assertEquals(Optional.empty(), released.assignedAt());
        assertEquals(Optional.of(dead.id()), released.previousWorker());
        assertEquals(1, released.releaseCount());
        assertEquals(lost.version().next(), released.version());
        StepExecution fenced = step(dead.id());
        assertEquals(ExecutionStatus.FAILED, fenced.status());
        assertEquals("FAILED", fenced.exitStatus().code());
        assertEquals(PartitionLeaseStore.OWNER_LOST, fenced.failure().map(ExecutionFailure::type).orElseThrow());
        assertTrue(fenced.failure().orElseThrow().message().contains("lost its lease"), fenced.failure().toString());
        assertTrue(fenced.endedAt().isPresent());
        assertEquals(dead.version().next(), fenced.version());
        assertEquals(List.of(dead.id().value() + " OWNER_LOST"), releases(job.parent().id()));
        assertEquals(ExecutionStatus.STARTED, step(live.id()).status(), "a live lease is left alone");
    }

    @Test
    void theLostWorkerIsFencedOffShouldItComeBack() throws SQLException {
        PartitionFixture job = PartitionFixture.start(given, "fenced");
        StepExecution dead = job.worker();
        StepPartition lost = job.assign(job.plan(entries(1)).get(0), dead);
        expireLeases(dead);
        tx(() -> leases.poll(job.parent().id(), now()));

        assertThrows(RepositoryException.class, () -> tx(() -> repository.recordStepProgress(dead.id(), dead.version(),
                Optional.of(Checkpoint.of("late".getBytes(StandardCharsets.UTF_8))), counters(10, 10), now())),
                "its next chunk commit is refused");
        assertThrows(RepositoryException.class,
                () -> tx(() -> repository.completeStepPartition(lost.id(), lost.version(), dead.id())),
                "it can no longer complete the partition");
    }

    @Test
    void theNextWorkerClaimsAReleasedPartitionWithItsLineage() throws SQLException {
        PartitionFixture job = PartitionFixture.start(given, "reclaimed");
        StepExecution dead = job.worker();
        job.assign(job.plan(entries(2)).get(0), dead);
        expireLeases(dead);
        tx(() -> leases.poll(job.parent().id(), now()));

        StepExecution next = job.worker();
        StepPartition claimed = tx(() -> repository.claimNextStepPartition(job.parent().id(), next.id())).orElseThrow();
        assertEquals(1, claimed.ordinal(), "released work is claimed first, in entry order");
        assertEquals(Optional.of(next.id()), claimed.worker());
        assertEquals(Optional.of(dead.id()), claimed.previousWorker());
        assertEquals(1, claimed.releaseCount());
        given.endStep(next, ExecutionStatus.COMPLETED, "COMPLETED", counters(5, 5));
        StepPartition completed = tx(() -> repository.completeStepPartition(claimed.id(), claimed.version(), next.id()));
        assertEquals(ExecutionStatus.COMPLETED, completed.status());
        assertEquals(Optional.of(dead.id()), completed.previousWorker());
        assertEquals(1, completed.releaseCount());
    }

    @Test
    void aWorkerWithALiveLeaseOrNoLeaseYetIsNeverReleased() throws SQLException {
        PartitionFixture job = PartitionFixture.start(given, "alive");
        List<StepPartition> plan = job.plan(entries(2));
        job.assign(plan.get(0), job.worker());
        StepExecution starting = given.stepIn(job.execution().id(), "worker", ExecutionStatus.STARTING);
        job.assign(plan.get(1), starting);

        assertEquals(new PlanSummary(0, 2, 0, 0, 0, 0), tx(() -> leases.poll(job.parent().id(), now())));
        assertEquals(List.of(), releases(job.parent().id()));
    }

    @Test
    void aPartitionWhoseWorkerEndedWithoutCompletingItIsSettledOnceTheWorkersLeaseRanOut() throws SQLException {
        PartitionFixture job = PartitionFixture.start(given, "orphaned");
        List<StepPartition> plan = job.plan(entries(2));
        StepExecution worker = job.worker();
        job.assign(plan.get(0), worker);
        job.run(plan.get(1), ExecutionStatus.FAILED, "FAILED", counters(1, 0));
        StepExecution ended = given.endStep(worker, ExecutionStatus.COMPLETED, "COMPLETED", counters(7, 7));

        assertEquals(new PlanSummary(0, 1, 0, 1, 0, 0), tx(() -> leases.poll(job.parent().id(), now())),
                "while its lease lasts, the worker may still complete its partition");
        expireLeases(ended);
        assertEquals(new PlanSummary(0, 0, 1, 1, 0, 0), tx(() -> leases.poll(job.parent().id(), now())));
        StepPartition settled = job.ordinal(1);
        assertEquals(ExecutionStatus.COMPLETED, settled.status());
        assertEquals(7, settled.counters().writeCount(), "the result is the worker's durable one");
        assertEquals(Optional.of(worker.id()), settled.worker());
        assertEquals(0, settled.releaseCount());
        assertEquals(ExecutionStatus.COMPLETED, step(worker.id()).status());
        assertEquals(List.of(), releases(job.parent().id()), "nothing was released");
    }

    @Test
    void concurrentPollsReleaseEveryPartitionExactlyOnce() throws SQLException {
        int partitions = 30;
        for (int round = 0; round < 5; round++) {
            PartitionFixture job = PartitionFixture.start(given, "concurrent-release");
            List<StepPartition> plan = job.plan(entries(partitions));
            List<StepExecution> dead = new ArrayList<>();
            for (StepPartition partition : plan) {
                StepExecution worker = job.worker();
                job.assign(partition, worker);
                dead.add(worker);
            }
            expireLeases(dead.toArray(StepExecution[]::new));

            List<Race.Outcome<PlanSummary>> outcomes = Race.run(4, racer -> tx(() -> leases.poll(job.parent().id(),
                    now())));

            assertEquals(List.of(), outcomes.stream().filter(o -> !o.succeeded()).map(Race.Outcome::code).toList());
            assertEquals(partitions, Race.results(outcomes).stream().mapToLong(PlanSummary::released).sum(),
                    "the racers released every partition once between them");
            assertEquals(partitions, releases(job.parent().id()).size(), "one audit row per release");
            assertTrue(job.currentPlan().stream().allMatch(p -> p.isUnassigned() && p.releaseCount() == 1),
                    job.currentPlan().toString());
            for (StepExecution worker : dead) {
                assertEquals(worker.version().next(), step(worker.id()).version(), "each worker is ended once");
            }
            assertEquals(new PlanSummary(partitions, 0, 0, 0, 0, 0), tx(() -> leases.poll(job.parent().id(), now())));
        }
    }

    @Test
    void aWorkerWhoseProcessLeavesHandsItsPartitionBackInsteadOfStoppingTheJob() throws SQLException {
        PartitionFixture job = PartitionFixture.start(given, "handback");
        StepExecution leaving = job.worker();
        StepPartition taken = job.assign(job.plan(entries(2)).get(0), leaving);
        given.endStep(leaving, ExecutionStatus.STOPPED, "STOPPED", counters(30, 30));

        assertTrue(tx(() -> leases.handBack(taken.id(), leaving.id(), now())));

        StepPartition handed = job.ordinal(1);
        assertEquals(ExecutionStatus.STARTING, handed.status(), "unassigned work again, not a STOPPED result");
        assertEquals(Optional.of(leaving.id()), handed.previousWorker(), "the next worker resumes its checkpoint");
        assertEquals(1, handed.releaseCount());
        assertEquals(List.of(leaving.id().value() + " " + PartitionLeaseStore.HAND_BACK_REASON),
                releases(job.parent().id()));
        assertTrue(!tx(() -> leases.handBack(taken.id(), leaving.id(), now())), "handed back once");
    }

    @Test
    void onlyAStoppedWorkerHandsItsOwnPartitionBack() throws SQLException {
        PartitionFixture job = PartitionFixture.start(given, "nohandback");
        List<StepPartition> plan = job.plan(entries(2));
        StepExecution running = job.worker();
        StepPartition taken = job.assign(plan.get(0), running);
        StepExecution other = job.worker();
        job.assign(plan.get(1), other);
        given.endStep(other, ExecutionStatus.STOPPED, "STOPPED", counters(1, 1));

        assertTrue(!tx(() -> leases.handBack(taken.id(), running.id(), now())), "a running worker keeps its partition");
        assertTrue(!tx(() -> leases.handBack(taken.id(), other.id(), now())), "nor hands back another's");
        assertEquals(ExecutionStatus.STARTED, job.ordinal(1).status());
        assertEquals(List.of(), releases(job.parent().id()));
    }

    private StepExecution step(StepExecutionId id) {
        return tx(() -> repository.getStepExecution(id)).orElseThrow();
    }

    /** Runs out the leases of {@code workers}, on the database clock. */
    private void expireLeases(StepExecution... workers) throws SQLException {
        Long[] ids = Arrays.stream(workers).map(w -> w.id().value()).toArray(Long[]::new);
        try (Connection connection = dataSource.getConnection();
                PreparedStatement expire = connection.prepareStatement(
                        tables.substitute(
                                "UPDATE {p}step_execution SET lease_expires_at = statement_timestamp() - interval '1 second' "
                                        + "WHERE id = ANY (?)"))) {
            expire.setArray(1, connection.createArrayOf("bigint", ids));
            assertEquals(ids.length, expire.executeUpdate());
        }
    }

    /** The audited releases of a plan, oldest first, as "worker reason". */
    private List<String> releases(StepExecutionId parent) throws SQLException {
        List<String> releases = new ArrayList<>();
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement(
                        tables.substitute("SELECT worker_step_execution_id, reason FROM {p}partition_release "
                                + "WHERE parent_step_execution_id = ? ORDER BY id"))) {
            select.setLong(1, parent.value());
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    releases.add(rows.getLong(1) + " " + rows.getString(2));
                }
            }
        }
        return releases;
    }
}
