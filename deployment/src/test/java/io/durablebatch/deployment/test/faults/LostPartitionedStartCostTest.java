package io.durablebatch.deployment.test.faults;

import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.job.Steps.tasklet;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.deployment.test.faults.FaultInjectingDriver.Kind;
import io.durablebatch.deployment.test.kernel.KernelTestSupport;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.repository.spi.KernelRepository;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A partitioned step whose start committed but whose acknowledgement was lost finds, on the retried
 * start, the attempt an earlier execution left unfinished (whose plan it restarts) with one statement,
 * however many earlier executions of the instance there are and whichever of them ran the step: here
 * the first execution ran it and failed in its workers, the next ones failed at the gate before it.
 */
class LostPartitionedStartCostTest {

    static final String JOB = "lostPartitionedStart";
    static final String PREFIX = "lstart_";
    static final int PARTITIONS = 2;
    static final int PER_PARTITION = 5;

    @RegisterExtension
    static final QuarkusUnitTest APP = FaultJobs.app(PREFIX, Jobs.class)
            .overrideConfigKey("quarkus.durable-batch.control.poll-interval", "200ms");

    static volatile boolean gateCloses;
    static volatile boolean workersFail;

    @Singleton
    static class Jobs {
        @Inject
        AgroalDataSource dataSource;

        @Produces
        JobDefinition lostPartitionedStart() {
            FaultJobs.TargetWriter target = new FaultJobs.TargetWriter(dataSource);
            return Job.named(JOB)
                    .start(tasklet("gate", context -> {
                        if (gateCloses) {
                            throw new IllegalStateException("the gate is closed");
                        }
                        return RepeatStatus.FINISHED;
                    }).withAllowStartIfComplete(true))
                    .next(KernelTestSupport.rangePartitions(PARTITIONS, PER_PARTITION, PER_PARTITION, items -> {
                        if (workersFail) {
                            throw new IllegalStateException("the workers fail");
                        }
                        target.write(items);
                    }).withWorkers(PARTITIONS))
                    .build();
        }
    }

    @Inject
    JobOperator operator;

    @Inject
    KernelRepository repository;

    @Inject
    AgroalDataSource dataSource;

    @BeforeEach
    void createTarget() throws SQLException {
        FaultJobs.createTarget(dataSource);
    }

    @Test
    void theRetriedStartReadsTheAttemptItResumesInOneStatementWhateverTheHistory() throws Exception {
        List<String> afterOne = retriedStart(1);
        List<String> afterFour = retriedStart(4);

        // the retried start: the node's latest attempt (its own, whose start committed), the latest
        // earlier attempt of the step, then the running attempt's plan (none). Reading the instance's
        // executions, then each one's steps until one had the step, took 5 statements after one
        // execution without the step and 8 after four.
        assertEquals(List.of(3, 3), List.of(afterOne.size(), afterFour.size()), () -> "after one execution without "
                + "the step:\n" + lines(afterOne) + "\nafter four:\n" + lines(afterFour));
    }

    /**
     * Runs an instance whose first execution fails in the partitioned step's workers and whose next
     * {@code withoutTheStep} fail at the gate before it, then restarts it once more with the
     * acknowledgement of the partitioned step's start lost; returns the statements between that start
     * and the restart of the first execution's plan.
     */
    private List<String> retriedStart(int withoutTheStep) throws Exception {
        String run = UUID.randomUUID().toString();
        gateCloses = false;
        workersFail = true;
        JobExecutionId first = operator.start(JOB, JobParameters.of("run", run), call());
        assertEquals(ExecutionStatus.FAILED, operator.await(first, Duration.ofSeconds(30)).status());
        StepExecution unfinished = step(first, "load");

        gateCloses = true;
        workersFail = false;
        JobExecutionId latest = first;
        for (int i = 0; i < withoutTheStep; i++) {
            latest = operator.restart(latest, call());
            assertEquals(ExecutionStatus.FAILED, operator.await(latest, Duration.ofSeconds(30)).status());
        }

        gateCloses = false;
        FaultInjectingDriver.arm(sql -> sql.startsWith("WITH e AS (SELECT id, job_instance_id FROM " + PREFIX
                + "job_execution") && sql.contains("started_at, lease_expires_at, checkpoint"), Kind.COMMIT_LOST);
        JobExecutionId last = operator.restart(latest, call());
        assertEquals(ExecutionStatus.COMPLETED, operator.await(last, Duration.ofSeconds(30)).status());
        assertTrue(FaultInjectingDriver.fired().isPresent(), "the start of the partitioned step lost its acknowledgement");

        assertEquals(unfinished.id().value(), restartedFrom(step(last, "load")), "the plan restarted is the first "
                + "execution's, the latest attempt of the step in an earlier execution");
        assertArrayEquals(new long[] { PARTITIONS * PER_PARTITION, PARTITIONS * PER_PARTITION },
                FaultJobs.rowsAndDistinctIds(dataSource, run), "every item written once");

        List<String> counted = FaultInjectingDriver.counted();
        int faulted = FaultInjectingDriver.fired().orElseThrow().ordinal();
        int restart = faulted;
        while (restart < counted.size() && !counted.get(restart).startsWith("WITH source AS")) {
            restart++;
        }
        assertTrue(restart < counted.size(), () -> "the plan was restarted:\n" + lines(counted));
        return counted.subList(faulted, restart);
    }

    private StepExecution step(JobExecutionId execution, String name) {
        return tx(() -> repository.stepExecutions(execution)).stream()
                .filter(step -> step.stepName().value().equals(name)).findFirst().orElseThrow();
    }

    private long restartedFrom(StepExecution parent) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement plan = connection.prepareStatement("SELECT restarted_from FROM " + PREFIX
                        + "step_partition_plan WHERE parent_step_execution_id = ?")) {
            plan.setLong(1, parent.id().value());
            try (ResultSet row = plan.executeQuery()) {
                assertTrue(row.next(), "the parent has a plan");
                return row.getLong(1);
            }
        }
    }

    private static OperatorCall call() {
        return OperatorCall.by("test");
    }

    private static String lines(List<String> statements) {
        return statements.stream().map(statement -> "  " + statement).collect(Collectors.joining("\n"));
    }
}
