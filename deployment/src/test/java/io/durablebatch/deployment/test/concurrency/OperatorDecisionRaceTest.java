package io.durablebatch.deployment.test.concurrency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.FailingJob;
import io.durablebatch.deployment.test.OperatorTest;
import io.durablebatch.deployment.test.Race;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.ReasonCode;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.repository.RecoveryResolution;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Operators racing on one instance (issue 26): eight threads released together call stop, restart,
 * recover and abandon on its latest attempt, round after round. Each decision on an instance is
 * made under the lock of its row, so whatever the interleaving the tables keep the instance rules:
 * no attempt after an ABANDONED one (ABANDONED is terminal for the instance), at most one active
 * attempt, and every losing call gets a typed refusal. {@code -Dtorture=full} runs 30 rounds on
 * each of three instances; the build runs 10 on one.
 */
class OperatorDecisionRaceTest extends OperatorTest {

    private static final boolean FULL = "full".equals(System.getProperty("torture", "ci"));
    private static final int ROUNDS = FULL ? 30 : 10;
    private static final int INSTANCES = FULL ? 3 : 1;
    private static final int THREADS = 8;
    private static final String JOB = FailingJob.NAME;

    /** The refusals a racing operator may get; anything else (a deadlock, a raw SQL error) fails the test. */
    private static final Set<String> TYPED = Set.of("ok", "EXECUTION_ACTIVE", "EXECUTION_SUPERSEDED",
            "INSTANCE_ABANDONED", "INSTANCE_COMPLETE", "ILLEGAL_TRANSITION", "VERSION_CONFLICT",
            "STOP_ALREADY_REQUESTED", "EXECUTION_NOT_ACTIVE", "EXECUTION_NOT_RECOVERABLE", "EXECUTION_LEASE_LIVE",
            "ALREADY_RECOVERED",
            "EXECUTION_UNKNOWN");

    @RegisterExtension
    static final QuarkusUnitTest APP = RepositoryTestSupport.repositoryApp(OperatorTest.class, FailingJob.class);

    @Test
    void racingStopRestartRecoverAndAbandonNeverRunAnAbandonedInstanceAgain() {
        Map<String, Integer> outcomes = new TreeMap<>();
        List<JobInstanceId> instances = new ArrayList<>();
        for (int i = 0; i < INSTANCES; i++) {
            JobInstanceId instance = null;
            for (int round = 0; round < ROUNDS; round++) {
                JobExecution latest = instance == null ? null : latestEnded(instance);
                if (latest == null || latest.status() == ExecutionStatus.ABANDONED) {
                    // a fresh instance whose first attempt failed
                    JobExecution failed = operator.runAndWait(JOB, JobParameters.of("run", UUID.randomUUID().toString()),
                            OperatorCall.by("setup"));
                    instance = failed.jobInstanceId();
                    instances.add(instance);
                    latest = failed;
                }
                JobExecution target = latest;
                for (Race.Outcome<Object> outcome : Race.run(THREADS, racer -> act(racer, target))) {
                    outcomes.merge(outcome.code(), 1, Integer::sum);
                }
            }
            latestEnded(instance);
        }
        System.out.println("operator race outcomes over " + ROUNDS + " rounds x " + INSTANCES + " instances: " + outcomes);
        assertTrue(TYPED.containsAll(outcomes.keySet()), "only typed refusals: " + outcomes);
        assertTrue(outcomes.getOrDefault("ok", 0) > 0, "some calls succeed: " + outcomes);

        long[] ids = instances.stream().mapToLong(JobInstanceId::value).toArray();
        assertEquals(List.of(), stored.rows("""
                SELECT a.job_instance_id, a.attempt AS abandoned_attempt, l.attempt AS later_attempt, l.status
                FROM {p}job_execution a
                JOIN {p}job_execution l ON l.job_instance_id = a.job_instance_id AND l.attempt > a.attempt
                WHERE a.status = 'ABANDONED' AND a.job_instance_id = ANY (?)""", ids),
                "no attempt follows an ABANDONED one");
        assertEquals(List.of(), stored.rows("""
                SELECT job_instance_id, count(*) AS active FROM {p}job_execution
                WHERE status IN ('STARTING', 'STARTED', 'STOPPING') AND job_instance_id = ANY (?)
                GROUP BY job_instance_id HAVING count(*) > 1""", ids), "at most one active attempt per instance");
    }

    /** Racer {@code racer}'s call on the instance's latest attempt: stop, restart, recover or abandon. */
    private Object act(int racer, JobExecution latest) {
        OperatorCall call = OperatorCall.by("racer-" + racer);
        return switch (racer % 4) {
            case 0 -> {
                operator.stop(latest.id(), call);
                yield "stopped";
            }
            case 1 -> operator.restart(latest.id(), call);
            case 2 -> operator.recover(latest.id(), latest.version(), racer % 8 == 2 ? RecoveryResolution.ABANDONED
                    : RecoveryResolution.FAILED, ReasonCode.of("RACE"), true, call);
            default -> operator.abandon(latest.id(), call);
        };
    }

    /** The instance's latest attempt once it ended (a restart runs it for a few milliseconds). */
    private JobExecution latestEnded(JobInstanceId instance) {
        JobExecution latest = RepositoryTestSupport.tx(() -> repository.latestJobExecution(instance)).orElseThrow();
        return latest.status().isActive() ? operator.await(latest.id(), Duration.ofSeconds(30)) : latest;
    }
}
