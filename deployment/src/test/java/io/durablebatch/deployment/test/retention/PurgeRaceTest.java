package io.durablebatch.deployment.test.retention;

import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.deployment.test.retention.RetentionFixtures.freshJob;
import static io.durablebatch.deployment.test.retention.RetentionFixtures.instance;
import static io.durablebatch.deployment.test.retention.RetentionFixtures.storedRows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.deployment.test.RepositoryTestApp;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.deployment.test.Rows;
import io.durablebatch.repository.ActorRef;
import io.durablebatch.repository.ExecutionStatus;
import io.durablebatch.repository.JobExecution;
import io.durablebatch.repository.JobInstanceId;
import io.durablebatch.repository.JobName;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.ReasonCode;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.retention.PurgeCandidate;
import io.durablebatch.retention.PurgeCounts;
import io.durablebatch.retention.PurgePlan;
import io.durablebatch.retention.PurgePlanRequest;
import io.durablebatch.retention.PurgeSurvey;
import io.quarkus.test.QuarkusUnitTest;

/**
 * SPEC 9 under concurrency, with real threads in separate transactions started together: purges of
 * overlapping plans, and a hold, a restart or a transition racing a purge. Each race ends in one of the serial
 * outcomes, with typed refusals only, and no row is deleted twice.
 */
class PurgeRaceTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RepositoryTestApp.with(RepositoryTestSupport.class, Rows.class,
            RetentionFixtures.class);

    private static final int ROUNDS = 15;

    @Inject
    JobRepository repository;

    @Inject
    AgroalDataSource dataSource;

    private ExecutorService pool;

    @BeforeEach
    void startThreads() {
        pool = Executors.newFixedThreadPool(2);
    }

    @AfterEach
    void stopThreads() {
        pool.shutdownNow();
    }

    @Test
    void overlappingPurgesNeverDeleteARowTwice() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            JobName job = freshJob("race-purge");
            for (int i = 0; i < 6; i++) {
                instance(repository, job, 3, ExecutionStatus.FAILED, ExecutionStatus.COMPLETED);
            }
            List<PurgeCandidate> candidates = survey(job).candidates();
            PurgePlan first = new PurgePlan(candidates.subList(0, 4));
            PurgePlan second = new PurgePlan(candidates.subList(2, 6));

            List<String> outcomes = race(() -> purge(first), () -> purge(second));

            String context = "round " + round + ": " + outcomes;
            assertTrue(outcomes.contains("RETENTION_PLAN_STALE"), context);
            String won = outcomes.get(0).startsWith("PURGED") ? outcomes.get(0) : outcomes.get(1);
            // 4 instances, each with 2 executions of 3 steps
            assertEquals("PURGED {step_execution=24, job_execution=8, job_instance=4}", won, context);
            List<JobInstanceId> spared = ids(outcomes.get(0).startsWith("PURGED") ? candidates.subList(4, 6)
                    : candidates.subList(0, 2));
            assertEquals(Map.of("step_execution", 12L, "job_execution", 4L, "job_instance", 2L, "retention_hold", 0L),
                    storedRows(dataSource, spared), context);
            assertEquals(2, survey(job).candidates().size(), context);
        }
    }

    @Test
    void aHoldRacingAPurgeNeverLosesToIt() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            JobName job = freshJob("race-hold");
            JobInstanceId instance = instance(repository, job, 3, ExecutionStatus.COMPLETED).id();
            PurgePlan plan = survey(job).plan();

            List<String> outcomes = race(() -> {
                tx(() -> repository.placeInstanceHold(instance, ActorRef.of("legal"), ReasonCode.of("LITIGATION"), now()));
                return "HELD";
            }, () -> purge(plan));

            String context = "round " + round + ": " + outcomes;
            Map<String, Long> rows = storedRows(dataSource, List.of(instance));
            if (outcomes.get(0).equals("HELD")) {
                assertEquals("RETENTION_PLAN_STALE", outcomes.get(1), context);
                assertEquals(Map.of("step_execution", 3L, "job_execution", 1L, "job_instance", 1L, "retention_hold", 1L),
                        rows, context);
            } else {
                assertEquals(List.of("JOB_INSTANCE_NOT_FOUND", "PURGED {step_execution=3, job_execution=1, job_instance=1}"),
                        outcomes, context);
                assertEquals(0, rows.values().stream().mapToLong(Long::longValue).sum(), context);
            }
        }
    }

    @Test
    void aRestartRacingAPurgeNeverLosesToIt() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            JobName job = freshJob("race-restart");
            JobInstanceId instance = instance(repository, job, 3, ExecutionStatus.FAILED).id();
            PurgePlan plan = survey(job).plan();

            List<String> outcomes = race(() -> {
                tx(() -> repository.createJobExecution(instance));
                return "RESTARTED";
            }, () -> purge(plan));

            String context = "round " + round + ": " + outcomes;
            Map<String, Long> rows = storedRows(dataSource, List.of(instance));
            if (outcomes.get(0).equals("RESTARTED")) {
                assertEquals("RETENTION_PLAN_STALE", outcomes.get(1), context);
                assertEquals(Map.of("step_execution", 3L, "job_execution", 2L, "job_instance", 1L, "retention_hold", 0L),
                        rows, context);
            } else {
                assertEquals(List.of("JOB_INSTANCE_NOT_FOUND", "PURGED {step_execution=3, job_execution=1, job_instance=1}"),
                        outcomes, context);
                assertEquals(0, rows.values().stream().mapToLong(Long::longValue).sum(), context);
            }
        }
    }

    @Test
    void aTransitionRacingAPurgeIsNeitherLostNorPurgedUnseen() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            JobName job = freshJob("race-abandon");
            JobInstanceId instance = instance(repository, job, 3, ExecutionStatus.FAILED).id();
            JobExecution failed = tx(() -> repository.latestJobExecution(instance)).orElseThrow();
            PurgePlan plan = survey(job).plan();

            List<String> outcomes = race(() -> {
                tx(() -> repository.transitionJobExecution(failed.id(), failed.version(),
                        LifecycleTransition.to(ExecutionStatus.ABANDONED, now())));
                return "ABANDONED";
            }, () -> purge(plan));

            String context = "round " + round + ": " + outcomes;
            Map<String, Long> rows = storedRows(dataSource, List.of(instance));
            if (outcomes.get(0).equals("ABANDONED")) {
                // the purge validated after the transition, or waited for it: never both succeed
                assertEquals("RETENTION_PLAN_STALE", outcomes.get(1), context);
                assertEquals(ExecutionStatus.ABANDONED, tx(() -> repository.getJobExecution(failed.id()))
                        .orElseThrow().status(), context);
            } else {
                assertEquals(List.of("JOB_EXECUTION_NOT_FOUND",
                        "PURGED {step_execution=3, job_execution=1, job_instance=1}"), outcomes, context);
                assertEquals(0, rows.values().stream().mapToLong(Long::longValue).sum(), context);
            }
        }
    }

    /** Runs both calls at once, each in its own transaction; returns their outcomes in order. */
    private List<String> race(Callable<String> first, Callable<String> second) throws Exception {
        CyclicBarrier barrier = new CyclicBarrier(2);
        List<Future<String>> futures = new ArrayList<>();
        for (Callable<String> call : List.of(first, second)) {
            futures.add(pool.submit(() -> {
                barrier.await(10, TimeUnit.SECONDS);
                try {
                    return call.call();
                } catch (RepositoryException e) {
                    // a typed refusal; anything else (a raw SQL failure included) fails the test
                    return e.isTransient() || e.error().name().startsWith("STORAGE") ? "RAW " + e.getMessage()
                            : e.error().name();
                }
            }));
        }
        List<String> outcomes = new ArrayList<>();
        for (Future<String> future : futures) {
            outcomes.add(future.get(60, TimeUnit.SECONDS));
        }
        return outcomes;
    }

    private String purge(PurgePlan plan) {
        PurgeCounts counts = tx(() -> repository.applyPurge(plan));
        return "PURGED " + counts.deletedRows();
    }

    private PurgeSurvey survey(JobName job) {
        return tx(() -> repository.purgeSurvey(PurgePlanRequest.before(now().plus(Duration.ofMinutes(1)), 100)
                .forJob(job)));
    }

    private static List<JobInstanceId> ids(List<PurgeCandidate> candidates) {
        return candidates.stream().map(PurgeCandidate::jobInstanceId).toList();
    }
}
