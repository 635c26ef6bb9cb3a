package io.durablebatch.deployment.test.retention;

import static io.durablebatch.deployment.test.RepositoryTestSupport.freshJobName;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.Race;
import io.durablebatch.deployment.test.RepositoryFixtures;
import io.durablebatch.deployment.test.StoredState;
import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.ReasonCode;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.retention.PurgeCandidate;
import io.durablebatch.repository.retention.PurgeCounts;
import io.durablebatch.repository.retention.PurgePlan;
import io.durablebatch.repository.retention.PurgePlanRequest;
import io.durablebatch.repository.retention.PurgeSurvey;
import io.durablebatch.repository.spi.KernelRepository;
import io.quarkus.test.QuarkusUnitTest;

/**
 * SPEC 9 under concurrency, with real threads in separate transactions started together: purges of
 * overlapping plans, and a hold, a restart or a transition racing a purge. Each race ends in one of the serial
 * outcomes, with typed refusals only, and no row is deleted twice.
 */
class PurgeRaceTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp();

    private static final int ROUNDS = 15;

    @Inject
    KernelRepository repository;

    @Inject
    RepositoryFixtures given;

    @Inject
    StoredState state;

    @Test
    void overlappingPurgesNeverDeleteARowTwice() {
        for (int round = 0; round < ROUNDS; round++) {
            JobName job = freshJobName("race-purge");
            for (int i = 0; i < 6; i++) {
                given.instanceWithHistory(job, 3, ExecutionStatus.FAILED, ExecutionStatus.COMPLETED);
            }
            List<PurgeCandidate> candidates = survey(job).candidates();
            PurgePlan first = new PurgePlan(candidates.subList(0, 4));
            PurgePlan second = new PurgePlan(candidates.subList(2, 6));

            List<String> outcomes = race(() -> purge(first), () -> purge(second));

            String context = "round " + round + ": " + outcomes;
            assertTrue(outcomes.contains("RETENTION_PLAN_STALE"), context);
            String won = outcomes.get(0).startsWith("PURGED") ? outcomes.get(0) : outcomes.get(1);
            // 4 instances, each with 2 executions of 3 steps
            assertEquals(purged(24, 8, 4), won, context);
            List<JobInstanceId> spared = ids(outcomes.get(0).startsWith("PURGED") ? candidates.subList(4, 6)
                    : candidates.subList(0, 2));
            assertEquals(Map.of("step_execution", 12L, "job_execution", 4L, "job_instance", 2L),
                    state.rowCounts(spared), context);
            assertEquals(2, survey(job).candidates().size(), context);
        }
    }

    @Test
    void aHoldRacingAPurgeNeverLosesToIt() {
        for (int round = 0; round < ROUNDS; round++) {
            JobName job = freshJobName("race-hold");
            JobInstanceId instance = given.instanceWithHistory(job, 3, ExecutionStatus.COMPLETED).id();
            PurgePlan plan = survey(job).plan();

            List<String> outcomes = race(() -> {
                tx(() -> repository.placeInstanceHold(instance, ActorRef.of("legal"), ReasonCode.of("LITIGATION"), now()));
                return "HELD";
            }, () -> purge(plan));

            String context = "round " + round + ": " + outcomes;
            Map<String, Long> rows = state.rowCounts(List.of(instance));
            if (outcomes.get(0).equals("HELD")) {
                assertEquals("RETENTION_PLAN_STALE", outcomes.get(1), context);
                assertEquals(Map.of("step_execution", 3L, "job_execution", 1L, "job_instance", 1L, "retention_hold", 1L),
                        rows, context);
            } else {
                assertEquals(List.of("JOB_INSTANCE_NOT_FOUND", purged(3, 1, 1)),
                        outcomes, context);
                assertEquals(Map.of(), rows, context);
            }
        }
    }

    @Test
    void aRestartRacingAPurgeNeverLosesToIt() {
        for (int round = 0; round < ROUNDS; round++) {
            JobName job = freshJobName("race-restart");
            JobInstanceId instance = given.instanceWithHistory(job, 3, ExecutionStatus.FAILED).id();
            PurgePlan plan = survey(job).plan();

            List<String> outcomes = race(() -> {
                tx(() -> repository.createJobExecution(JobExecutionRequest.of(instance)));
                return "RESTARTED";
            }, () -> purge(plan));

            String context = "round " + round + ": " + outcomes;
            Map<String, Long> rows = state.rowCounts(List.of(instance));
            if (outcomes.get(0).equals("RESTARTED")) {
                assertEquals("RETENTION_PLAN_STALE", outcomes.get(1), context);
                assertEquals(Map.of("step_execution", 3L, "job_execution", 2L, "job_instance", 1L),
                        rows, context);
            } else {
                assertEquals(List.of("JOB_INSTANCE_NOT_FOUND", purged(3, 1, 1)),
                        outcomes, context);
                assertEquals(Map.of(), rows, context);
            }
        }
    }

    @Test
    void aTransitionRacingAPurgeIsNeitherLostNorPurgedUnseen() {
        for (int round = 0; round < ROUNDS; round++) {
            JobName job = freshJobName("race-abandon");
            JobInstanceId instance = given.instanceWithHistory(job, 3, ExecutionStatus.FAILED).id();
            JobExecution failed = tx(() -> repository.latestJobExecution(instance)).orElseThrow();
            PurgePlan plan = survey(job).plan();

            List<String> outcomes = race(() -> {
                tx(() -> repository.transitionJobExecution(failed.id(), failed.version(),
                        LifecycleTransition.to(ExecutionStatus.ABANDONED, now())));
                return "ABANDONED";
            }, () -> purge(plan));

            String context = "round " + round + ": " + outcomes;
            Map<String, Long> rows = state.rowCounts(List.of(instance));
            if (outcomes.get(0).equals("ABANDONED")) {
                // the purge validated after the transition, or waited for it: never both succeed
                assertEquals("RETENTION_PLAN_STALE", outcomes.get(1), context);
                assertEquals(ExecutionStatus.ABANDONED, tx(() -> repository.getJobExecution(failed.id()))
                        .orElseThrow().status(), context);
            } else {
                assertEquals(List.of("JOB_EXECUTION_NOT_FOUND",
                        purged(3, 1, 1)), outcomes, context);
                assertEquals(Map.of(), rows, context);
            }
        }
    }

    /** Runs both calls at once, each in its own transactions: the result of each, or the code it failed with. */
    private static List<String> race(Supplier<String> first, Supplier<String> second) {
        List<Supplier<String>> calls = List.of(first, second);
        return Race.run(calls.size(), racer -> calls.get(racer).get()).stream()
                .map(outcome -> outcome.succeeded() ? outcome.result() : outcome.code()).toList();
    }

    private String purge(PurgePlan plan) {
        PurgeCounts counts = tx(() -> repository.applyPurge(plan));
        return "PURGED " + counts.deletedRows();
    }

    /** What {@link #purge} reports for instances without flows or partitions. */
    private static String purged(long steps, long executions, long instances) {
        return "PURGED {step_partition=0, step_partition_plan=0, flow_decision=0, flow_decision_head=0, flow_node=0, "
                + "step_execution=" + steps + ", job_execution=" + executions + ", job_instance=" + instances + "}";
    }

    private PurgeSurvey survey(JobName job) {
        return tx(() -> repository.purgeSurvey(PurgePlanRequest.before(now().plus(Duration.ofMinutes(1)), 100)
                .forJob(job)));
    }

    private static List<JobInstanceId> ids(List<PurgeCandidate> candidates) {
        return candidates.stream().map(PurgeCandidate::jobInstanceId).toList();
    }
}
