package io.durablebatch.deployment.test.partition;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertRefused;
import static io.durablebatch.deployment.test.RepositoryTestSupport.commitIf;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.deployment.test.partition.PartitionFixture.counters;
import static io.durablebatch.deployment.test.partition.PartitionFixture.entries;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
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
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.execution.StepName;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.partition.StepPartition;
import io.durablebatch.repository.partition.StepPartitionId;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.test.QuarkusUnitTest;

/** SPEC §7: partitions are assigned by compare-and-swap or claimed, and completed from their worker. */
class PartitionAssignmentTest {

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
    void anUnassignedPartitionIsAssignedToAWorkerByCompareAndSwap() {
        PartitionFixture job = PartitionFixture.start(given, "assign");
        StepPartition partition = job.plan(entries(3)).get(1);
        StepExecution worker = job.worker();

        long before = sql.statementsExecutedOnThisThread();
        StepPartition assigned = job.assign(partition, worker);
        assertEquals(1, sql.statementsExecutedOnThisThread() - before, "an assignment is one statement");

        assertEquals(ExecutionStatus.STARTED, assigned.status());
        assertEquals(Optional.of(worker.id()), assigned.worker());
        assertEquals(partition.version().next(), assigned.version());
        assertTrue(assigned.assignedAt().isPresent());
        assertEquals(partition.entry(), assigned.entry());
        assertEquals(partition.ordinal(), assigned.ordinal());
    }

    @Test
    void anAssignmentIsRefusedWithoutChangeWhenThePartitionIsNotAssignable() {
        PartitionFixture job = PartitionFixture.start(given, "assign-refusals");
        StepPartition partition = job.plan(entries(2)).get(0);
        StepExecution worker = job.worker();
        StepPartition assigned = job.assign(partition, worker);
        StepExecution other = job.worker();

        state.assertRefusedChangingNothing(job.instance(), RepositoryError.VERSION_CONFLICT,
                () -> repository.assignStepPartition(partition.id(), partition.version(), other.id()));
        state.assertRefusedChangingNothing(job.instance(), RepositoryError.PARTITION_NOT_ASSIGNABLE,
                () -> repository.assignStepPartition(assigned.id(), assigned.version(), other.id()));
        state.assertRefusedChangingNothing(job.instance(), RepositoryError.PARTITION_NOT_FOUND,
                () -> repository.assignStepPartition(StepPartitionId.of(Long.MAX_VALUE), ExecutionVersion.INITIAL,
                        other.id()));
    }

    @Test
    void aWorkerMustBeAStartingStepOfTheParentsJobExecutionWithoutAnotherPartition() {
        PartitionFixture job = PartitionFixture.start(given, "assign-worker");
        List<StepPartition> plan = job.plan(entries(2));
        StepPartition free = plan.get(1);
        StepExecution busy = job.worker();
        job.assign(plan.get(0), busy);
        StepExecution ended = given.endStep(job.worker(), ExecutionStatus.COMPLETED, "DONE", counters(1, 1));
        PartitionFixture elsewhere = PartitionFixture.start(given, "assign-worker-elsewhere");
        StepExecution foreign = elsewhere.worker();

        for (StepExecutionId ineligible : List.of(busy.id(), ended.id(), foreign.id(), job.parent().id())) {
            state.assertRefusedChangingNothing(job.instance(), RepositoryError.PARTITION_WORKER_NOT_ELIGIBLE,
                    () -> repository.assignStepPartition(free.id(), free.version(), ineligible));
            state.assertRefusedChangingNothing(job.instance(), RepositoryError.PARTITION_WORKER_NOT_ELIGIBLE,
                    () -> repository.claimNextStepPartition(job.parent().id(), ineligible));
        }
        state.assertRefusedChangingNothing(job.instance(), RepositoryError.STEP_EXECUTION_NOT_FOUND,
                () -> repository.assignStepPartition(free.id(), free.version(), StepExecutionId.of(Long.MAX_VALUE)));
    }

    @Test
    void aParentHandsOutPartitionsOnlyWhileStartingOrStarted() {
        PartitionFixture job = PartitionFixture.start(given, "assign-parent");
        StepPartition partition = job.plan(entries(1)).get(0);
        StepExecution worker = job.worker();
        given.move(job.parent(), LifecycleTransition.to(ExecutionStatus.STOPPING, now()));

        state.assertRefusedChangingNothing(job.instance(), RepositoryError.PARTITION_PARENT_NOT_ACTIVE,
                () -> repository.assignStepPartition(partition.id(), partition.version(), worker.id()));
        state.assertRefusedChangingNothing(job.instance(), RepositoryError.PARTITION_PARENT_NOT_ACTIVE,
                () -> repository.claimNextStepPartition(job.parent().id(), worker.id()));
    }

    @Test
    void workersClaimInEntryOrderOneStatementEachUntilThePlanIsExhausted() {
        PartitionFixture job = PartitionFixture.start(given, "claim");
        List<StepPartition> plan = job.plan(List.of(entries(3).get(2), entries(3).get(0), entries(3).get(1)));

        for (int ordinal = 1; ordinal <= 3; ordinal++) {
            StepExecution worker = job.worker();
            long before = sql.statementsExecutedOnThisThread();
            StepPartition claimed = tx(() -> repository.claimNextStepPartition(job.parent().id(), worker.id()))
                    .orElseThrow();
            assertEquals(1, sql.statementsExecutedOnThisThread() - before, "a claim is one statement");
            assertEquals(ordinal, claimed.ordinal(), "claims follow entry order, not key order");
            assertEquals(Optional.of(worker.id()), claimed.worker());
            assertEquals(ExecutionStatus.STARTED, claimed.status());
        }
        StepExecution late = job.worker();
        assertEquals(Optional.empty(), tx(() -> repository.claimNextStepPartition(job.parent().id(), late.id())));
        assertTrue(job.currentPlan().stream().noneMatch(StepPartition::isUnassigned));
        assertEquals(3, plan.size());

        PartitionFixture unplanned = PartitionFixture.start(given, "claim-unplanned");
        assertRefused(RepositoryError.PARTITION_PLAN_NOT_FOUND,
                () -> repository.claimNextStepPartition(unplanned.parent().id(), unplanned.worker().id()));
        assertRefused(RepositoryError.STEP_EXECUTION_NOT_FOUND,
                () -> repository.claimNextStepPartition(StepExecutionId.of(Long.MAX_VALUE), late.id()));
    }

    @Test
    void completionCopiesTheAssignedWorkersDurableResultInOneStatement() {
        PartitionFixture job = PartitionFixture.start(given, "complete");
        List<StepPartition> plan = job.plan(entries(2));
        StepExecution worker = job.worker();
        StepPartition assigned = job.assign(plan.get(0), worker);
        StepExecution ended = given.endStep(worker, ExecutionStatus.COMPLETED, "LOADED", counters(40, 38));

        long before = sql.statementsExecutedOnThisThread();
        StepPartition completed = tx(() -> repository.completeStepPartition(assigned.id(), assigned.version(),
                worker.id()));
        assertEquals(1, sql.statementsExecutedOnThisThread() - before, "a completion is one statement");

        assertEquals(ExecutionStatus.COMPLETED, completed.status());
        assertEquals(ended.exitStatus(), completed.exitStatus());
        assertEquals(new ExitStatus("LOADED", "ended as LOADED"), completed.exitStatus());
        assertEquals(counters(40, 38), completed.counters());
        assertEquals(Optional.of(worker.id()), completed.worker());
        assertEquals(assigned.version().next(), completed.version());
        assertTrue(completed.completedAt().isPresent());
        assertTrue(completed.isDone());

        StepPartition failed = job.run(plan.get(1), ExecutionStatus.FAILED, "BAD_ROWS", counters(7, 0));
        assertEquals(ExecutionStatus.FAILED, failed.status());
        assertEquals("BAD_ROWS", failed.exitStatus().code());
    }

    @Test
    void completionIsRefusedForAnUnassignedPartitionACrossedWorkerOrAWorkerStillRunning() {
        PartitionFixture job = PartitionFixture.start(given, "complete-refusals");
        List<StepPartition> plan = job.plan(entries(3));
        StepExecution running = job.worker();
        StepPartition runningPartition = job.assign(plan.get(0), running);
        StepExecution done = job.worker();
        StepPartition donePartition = job.assign(plan.get(1), done);
        given.endStep(done, ExecutionStatus.COMPLETED, "DONE", counters(5, 5));
        StepPartition unassigned = plan.get(2);

        state.assertRefusedChangingNothing(job.instance(), RepositoryError.PARTITION_NOT_ASSIGNED,
                () -> repository.completeStepPartition(unassigned.id(), unassigned.version(), done.id()));
        // the ended worker of another partition cannot lend its result to a partition it does not run
        state.assertRefusedChangingNothing(job.instance(), RepositoryError.PARTITION_WORKER_MISMATCH,
                () -> repository.completeStepPartition(runningPartition.id(), runningPartition.version(), done.id()));
        state.assertRefusedChangingNothing(job.instance(), RepositoryError.PARTITION_WORKER_ACTIVE,
                () -> repository.completeStepPartition(runningPartition.id(), runningPartition.version(), running.id()));
        state.assertRefusedChangingNothing(job.instance(), RepositoryError.VERSION_CONFLICT,
                () -> repository.completeStepPartition(donePartition.id(), plan.get(1).version(), done.id()));
        state.assertRefusedChangingNothing(job.instance(), RepositoryError.PARTITION_NOT_FOUND,
                () -> repository.completeStepPartition(StepPartitionId.of(Long.MAX_VALUE), ExecutionVersion.INITIAL,
                        done.id()));

        StepPartition completed = tx(() -> repository.completeStepPartition(donePartition.id(), donePartition.version(),
                done.id()));
        state.assertRefusedChangingNothing(job.instance(), RepositoryError.ILLEGAL_TRANSITION,
                () -> repository.completeStepPartition(completed.id(), completed.version(), done.id()));
    }

    @Test
    void aPartitionWhoseWorkerWasAbandonedCompletesAsFailed() {
        PartitionFixture job = PartitionFixture.start(given, "complete-abandoned");
        StepPartition partition = job.plan(entries(1)).get(0);
        StepExecution worker = job.worker();
        StepPartition assigned = job.assign(partition, worker);
        StepExecution stopped = given.endStep(worker, ExecutionStatus.STOPPED, "STOPPED", counters(3, 3));
        given.move(stopped, LifecycleTransition.to(ExecutionStatus.ABANDONED, now()));

        StepPartition completed = tx(() -> repository.completeStepPartition(assigned.id(), assigned.version(),
                worker.id()));
        assertEquals(ExecutionStatus.FAILED, completed.status(), "an abandoned worker did not finish its partition");
        assertEquals(counters(3, 3), completed.counters());
    }

    @Test
    void sixteenWorkersClaimEveryPartitionOfAThousandExactlyOnce() {
        PartitionFixture job = PartitionFixture.start(given, "claim-race");
        job.plan(entries(1_000));

        // each worker loops: start a worker step and claim in one unit of work (rolled back when the
        // plan is exhausted), then end the worker and complete the partition in a second one
        List<Race.Outcome<List<Long>>> outcomes = Race.run(16, racer -> {
            List<Long> claimed = new ArrayList<>();
            for (Optional<StepPartition> work = claimWithNewWorker(job); work.isPresent(); work = claimWithNewWorker(job)) {
                StepPartition partition = work.get();
                StepExecutionId worker = partition.worker().orElseThrow();
                tx(() -> {
                    StepExecution step = repository.getStepExecution(worker).orElseThrow();
                    StepExecution started = repository.transitionStepExecution(worker, step.version(),
                            LifecycleTransition.to(ExecutionStatus.STARTED, now()));
                    repository.transitionStepExecution(worker, started.version(), LifecycleTransition
                            .to(ExecutionStatus.COMPLETED, now()).withCounters(counters(partition.ordinal(), 1)));
                    return repository.completeStepPartition(partition.id(), partition.version(), worker);
                });
                claimed.add(partition.id().value());
            }
            return claimed;
        });

        assertEquals(Map.of("ok", 16L), Race.codes(outcomes));
        List<Long> claimed = outcomes.stream().flatMap(outcome -> outcome.result().stream()).toList();
        assertEquals(1_000, claimed.size(), "no partition lost");
        assertEquals(1_000, claimed.stream().distinct().count(), "no partition claimed twice");
        assertTrue(outcomes.stream().filter(outcome -> !outcome.result().isEmpty()).count() > 1,
                "the workers claimed side by side");
        List<StepPartition> plan = job.currentPlan();
        assertTrue(plan.stream().allMatch(p -> p.status() == ExecutionStatus.COMPLETED));
        assertEquals(1_000, plan.stream().map(p -> p.worker().orElseThrow()).distinct().count(),
                "one worker per partition");
        StepExecution parent = tx(() -> repository.aggregateStepPartitions(job.parent().id(), job.parent().version(),
                now()));
        assertEquals(ExecutionStatus.COMPLETED, parent.status());
        assertEquals(500_500, parent.counters().readCount(), "every partition counted once");
    }

    /** Starts a worker step and claims a partition for it in one unit of work, rolled back if none is left. */
    private Optional<StepPartition> claimWithNewWorker(PartitionFixture job) {
        List<StepPartition> claimed = new ArrayList<>(1);
        commitIf(() -> {
            StepExecution worker = repository.createStepExecution(job.execution().id(), StepName.of("worker"));
            repository.claimNextStepPartition(job.parent().id(), worker.id()).ifPresent(claimed::add);
            return !claimed.isEmpty();
        });
        return claimed.stream().findFirst();
    }

}
