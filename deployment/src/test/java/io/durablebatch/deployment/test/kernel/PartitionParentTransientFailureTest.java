package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.call;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.distinctIds;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.freshRun;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.pausing;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.rangePartitions;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.deployment.test.kernel.KernelTestSupport.TargetWriter;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.repository.partition.StepPartition;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The parent of a partitioned step retries on its next poll when ending fails transiently, rather
 * than failing: here its aggregation is cancelled by the statement timeout (SQL state 57014) while
 * another transaction holds its row, and succeeds once the row is free.
 */
class PartitionParentTransientFailureTest extends KernelTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, KernelTest.class,
                    KernelTestSupport.class, Jobs.class))
            .overrideConfigKey("quarkus.durable-batch.statements.timeout", "1s")
            .overrideConfigKey("quarkus.durable-batch.control.poll-interval", "200ms");

    static final int PARTITIONS = 2;
    static final int PER_PARTITION = 100;

    @Singleton
    static class Jobs {
        @Inject
        AgroalDataSource dataSource;

        @Produces
        JobDefinition blockedAggregation() {
            return Job.named("blockedAggregation")
                    .start(rangePartitions(PARTITIONS, PER_PARTITION, 10, pausing(150, new TargetWriter(dataSource)))
                            .withWorkers(PARTITIONS))
                    .build();
        }
    }

    @Inject
    RepositoryTables tables;

    @Test
    void anAggregationThatTimesOutIsRetriedAtTheNextPoll() throws Exception {
        String run = freshRun();
        JobExecutionId execution = operator.start("blockedAggregation", KernelTestSupport.run(run), call());
        StepExecution parent = awaitParent(execution, plan -> plan.size() == PARTITIONS
                && plan.stream().noneMatch(StepPartition::isUnassigned));

        try (Connection holder = dataSource.getConnection()) {
            holder.setAutoCommit(false);
            try (PreparedStatement lock = holder.prepareStatement(
                    tables.substitute("SELECT id FROM {p}step_execution WHERE id = ? FOR UPDATE"))) {
                lock.setLong(1, parent.id().value());
                lock.executeQuery().close();
            }
            // the workers still run (1.5 s each): the parent has not aggregated yet, and now it cannot
            assertTrue(tx(() -> repository.stepPartitionPlan(parent.id())).stream()
                    .anyMatch(p -> p.status() != ExecutionStatus.COMPLETED), "the lock was taken while workers ran");
            awaitParent(execution, plan -> plan.stream().allMatch(p -> p.status() == ExecutionStatus.COMPLETED));
            Thread.sleep(2500); // the parent's aggregation times out at least twice meanwhile
            assertEquals(ExecutionStatus.STARTED, tx(() -> repository.getStepExecution(parent.id())).orElseThrow()
                    .status(), "the parent keeps waiting instead of failing");
            holder.rollback();
        }

        JobExecution ended = operator.await(execution, Duration.ofSeconds(30));
        assertEquals(ExecutionStatus.COMPLETED, ended.status());
        assertEquals(ExecutionStatus.COMPLETED, tx(() -> repository.getStepExecution(parent.id())).orElseThrow().status());
        assertEquals(PARTITIONS * PER_PARTITION, rows(dataSource, run));
        assertEquals(PARTITIONS * PER_PARTITION, distinctIds(dataSource, run));
    }

    /** The parent step, once its plan satisfies {@code ready}. */
    StepExecution awaitParent(JobExecutionId execution, Predicate<List<StepPartition>> ready) throws InterruptedException {
        return KernelTestSupport.awaitParent(repository, execution, ready, "the plan never got there");
    }
}
