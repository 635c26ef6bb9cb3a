package io.durablebatch.deployment.test.partition;

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
import java.util.function.Function;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryFixtures;
import io.durablebatch.deployment.test.StoredState;
import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.OperationId;
import io.durablebatch.execution.ReasonCode;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.repository.RecoveryRequest;
import io.durablebatch.repository.RecoveryResolution;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.partition.StepPartition;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.test.QuarkusUnitTest;

/**
 * SPEC §7 and §5: a restart carries the plan into the new parent, keeps completed results and reruns
 * only the rest, once the source job has stopped or failed, normally or by recovery.
 */
class PartitionRestartTest {

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
    void aRestartAfterAPartialFailureRerunsOnlyTheUnfinishedPartitions() {
        PartitionFixture first = PartitionFixture.start(given, "restart-partial");
        List<StepPartition> plan = first.plan(entries(6));
        first.run(plan.get(0), ExecutionStatus.COMPLETED, "OK", counters(100, 100));
        first.run(plan.get(1), ExecutionStatus.FAILED, "BAD_ROWS", counters(50, 0));
        first.run(plan.get(2), ExecutionStatus.COMPLETED, "OK", counters(100, 100));
        // partition 4: its worker failed before the partition was completed
        StepExecution crashed = first.worker();
        first.assign(plan.get(3), crashed);
        given.endStep(crashed, ExecutionStatus.FAILED, "CRASHED", counters(10, 0));
        first.run(plan.get(4), ExecutionStatus.COMPLETED, "OK", counters(100, 100));
        // partition 6 was never assigned
        given.endStep(first.parent(), ExecutionStatus.FAILED, "FAILED", counters(0, 0));
        given.move(first.execution(), ExecutionStatus.FAILED);

        JobExecution restart = given.attemptIn(first.execution().jobInstanceId(), ExecutionStatus.STARTED);
        PartitionFixture second = new PartitionFixture(given, restart,
                given.stepIn(restart.id(), "partitioned", ExecutionStatus.STARTED));
        long before = sql.statementsExecutedOnThisThread();
        List<StepPartition> carried = tx(() -> repository.restartStepPartitionPlan(first.parent().id(),
                second.parent().id()));
        assertEquals(1, sql.statementsExecutedOnThisThread() - before, "a restart is one statement");

        Map<Integer, StepPartition> source = byOrdinal(first.currentPlan());
        Map<Integer, StepPartition> target = byOrdinal(carried);
        assertEquals(carried, second.currentPlan());
        assertEquals(6, carried.size());
        for (int ordinal : List.of(1, 3, 5)) {
            StepPartition kept = target.get(ordinal);
            StepPartition original = source.get(ordinal);
            assertEquals(ExecutionStatus.COMPLETED, kept.status(), "completed results are kept");
            assertEquals(original.worker(), kept.worker(), "with the worker they came from");
            assertEquals(original.exitStatus(), kept.exitStatus());
            assertEquals(original.counters(), kept.counters());
            assertEquals(original.entry(), kept.entry());
        }
        for (int ordinal : List.of(2, 4, 6)) {
            StepPartition rerun = target.get(ordinal);
            assertTrue(rerun.isUnassigned(), "partition " + ordinal + " is unassigned STARTING work");
            assertEquals(Optional.empty(), rerun.worker());
            assertEquals(source.get(ordinal).entry(), rerun.entry(), "with the same key and input");
        }
        carried.forEach(p -> assertEquals(Optional.of(source.get(p.ordinal()).id()), p.restartedFrom()));

        // workers of the restart get exactly the unfinished partitions, never a completed one
        List<Integer> rerun = new ArrayList<>();
        for (Optional<StepPartition> next = claim(second); next.isPresent(); next = claim(second)) {
            StepPartition claimed = next.get();
            rerun.add(claimed.ordinal());
            StepExecution worker = tx(() -> repository.getStepExecution(claimed.worker().orElseThrow())).orElseThrow();
            given.endStep(worker, ExecutionStatus.COMPLETED, "OK", counters(100, 100));
            tx(() -> repository.completeStepPartition(claimed.id(), claimed.version(), worker.id()));
        }
        assertEquals(List.of(2, 4, 6), rerun);
        StepExecution parent = tx(() -> repository.aggregateStepPartitions(second.parent().id(),
                second.parent().version(), now()));
        assertEquals(ExecutionStatus.COMPLETED, parent.status());
        assertEquals(600, parent.counters().readCount(), "three kept and three rerun partitions, each counted once");
    }

    @Test
    void recoveredWorkersMakeTheirPartitionsRestartEligible() {
        PartitionFixture first = PartitionFixture.start(given, "restart-recovered");
        List<StepPartition> plan = first.plan(entries(4));
        first.run(plan.get(0), ExecutionStatus.COMPLETED, "OK", counters(1, 1));
        StepExecution orphan = first.worker();
        first.assign(plan.get(1), orphan);
        // this worker ended COMPLETED, then its process died before it completed its partition
        StepExecution finished = first.worker();
        first.assign(plan.get(2), finished);
        given.endStep(finished, ExecutionStatus.COMPLETED, "OK", counters(3, 3));

        // the job's process is gone: recovery resolves the job and its active steps, workers included
        JobExecution current = tx(() -> repository.getJobExecution(first.execution().id())).orElseThrow();
        tx(() -> repository.recoverJobExecution(current.id(), new RecoveryRequest(OperationId.of("recover-"
                + current.id()), ActorRef.of("operator"), ReasonCode.of("OWNER_LOST"), RecoveryResolution.FAILED,
                current.version(), now())));
        assertEquals(ExecutionStatus.FAILED, tx(() -> repository.getStepExecution(orphan.id())).orElseThrow().status());
        // the partitions settle with their workers: none of a recovered job stays STARTED
        Map<Integer, StepPartition> settled = byOrdinal(tx(() -> repository.stepPartitionPlan(first.parent().id())));
        assertEquals(ExecutionStatus.FAILED, settled.get(2).status(), "the recovered worker's result");
        assertEquals(ExecutionStatus.COMPLETED, settled.get(3).status(), "the finished worker's result");
        assertTrue(settled.get(4).isUnassigned(), "unassigned work stays unassigned");

        JobExecution restart = given.attemptIn(first.execution().jobInstanceId(), ExecutionStatus.STARTED);
        StepExecution parent = given.stepIn(restart.id(), "partitioned", ExecutionStatus.STARTED);
        Map<Integer, StepPartition> carried = byOrdinal(tx(() -> repository.restartStepPartitionPlan(
                first.parent().id(), parent.id())));

        assertEquals(ExecutionStatus.COMPLETED, carried.get(1).status());
        assertTrue(carried.get(2).isUnassigned(), "the recovered worker's partition runs again");
        assertEquals(ExecutionStatus.COMPLETED, carried.get(3).status(),
                "a worker that had completed keeps its result, read from its durable row");
        assertEquals(Optional.of(finished.id()), carried.get(3).worker());
        assertEquals(3, carried.get(3).counters().readCount());
        assertTrue(carried.get(4).isUnassigned());
    }

    @Test
    void aPlanIsRestartedOnlyOnceItsJobStoppedOrFailed() {
        PartitionFixture first = PartitionFixture.start(given, "restart-running");
        first.plan(entries(2));
        // a second parent in the same, still running, job execution
        StepExecution target = given.stepIn(first.execution().id(), "partitioned-again", ExecutionStatus.STARTED);
        state.assertRefusedChangingNothing(first.instance(), RepositoryError.PARTITION_SOURCE_NOT_RESTARTABLE,
                () -> repository.restartStepPartitionPlan(first.parent().id(), target.id()));
    }

    @Test
    void aPlanIsRestartedOnlyOnceEveryWorkerEnded() {
        PartitionFixture first = PartitionFixture.start(given, "restart-busy-worker");
        List<StepPartition> plan = first.plan(entries(2));
        // a worker in another process is still running when the job is marked FAILED
        first.assign(plan.get(1), first.worker());
        given.move(first.execution(), ExecutionStatus.FAILED);
        JobExecution restart = given.attemptIn(first.execution().jobInstanceId(), ExecutionStatus.STARTED);
        StepExecution target = given.stepIn(restart.id(), "partitioned", ExecutionStatus.STARTED);

        state.assertRefusedChangingNothing(first.instance(), RepositoryError.PARTITION_WORKER_ACTIVE,
                () -> repository.restartStepPartitionPlan(first.parent().id(), target.id()));
    }

    @Test
    void aRestartIsRefusedWithoutChangeForAMissingSourcePlanAnExistingTargetPlanOrAnotherInstance() {
        PartitionFixture first = PartitionFixture.start(given, "restart-refusals");
        first.plan(entries(2));
        StepExecution unplanned = given.stepIn(first.execution().id(), "unplanned", ExecutionStatus.STARTED);
        given.move(first.execution(), ExecutionStatus.STOPPED);
        JobExecution restart = given.attemptIn(first.execution().jobInstanceId(), ExecutionStatus.STARTED);
        StepExecution target = given.stepIn(restart.id(), "partitioned", ExecutionStatus.STARTED);
        PartitionFixture other = PartitionFixture.start(given, "restart-other-instance");

        state.assertRefusedChangingNothing(first.instance(), RepositoryError.PARTITION_PLAN_NOT_FOUND,
                () -> repository.restartStepPartitionPlan(unplanned.id(), target.id()));
        state.assertRefusedChangingNothing(first.instance(), RepositoryError.PARTITION_SOURCE_MISMATCH,
                () -> repository.restartStepPartitionPlan(first.parent().id(), other.parent().id()));
        state.assertRefusedChangingNothing(first.instance(), RepositoryError.STEP_EXECUTION_NOT_FOUND,
                () -> repository.restartStepPartitionPlan(first.parent().id(), StepExecutionId.of(Long.MAX_VALUE)));
        StepExecution ended = given.endStep(target, ExecutionStatus.COMPLETED, "OK", counters(0, 0));
        state.assertRefusedChangingNothing(first.instance(), RepositoryError.PARTITION_PARENT_NOT_ACTIVE,
                () -> repository.restartStepPartitionPlan(first.parent().id(), ended.id()));

        StepExecution planned = given.stepIn(restart.id(), "partitioned-2", ExecutionStatus.STARTED);
        tx(() -> repository.restartStepPartitionPlan(first.parent().id(), planned.id()));
        state.assertRefusedChangingNothing(first.instance(), RepositoryError.PARTITION_PLAN_EXISTS,
                () -> repository.restartStepPartitionPlan(first.parent().id(), planned.id()));
    }

    private Optional<StepPartition> claim(PartitionFixture job) {
        StepExecution worker = job.worker();
        Optional<StepPartition> claimed = tx(() -> repository.claimNextStepPartition(job.parent().id(), worker.id()));
        if (claimed.isEmpty()) {
            given.endStep(worker, ExecutionStatus.COMPLETED, "NOTHING_TO_DO", counters(0, 0));
        }
        return claimed;
    }

    private static Map<Integer, StepPartition> byOrdinal(List<StepPartition> plan) {
        return plan.stream().collect(Collectors.toMap(StepPartition::ordinal, Function.identity()));
    }
}
