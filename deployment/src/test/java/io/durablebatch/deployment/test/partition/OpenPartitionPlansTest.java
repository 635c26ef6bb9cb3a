package io.durablebatch.deployment.test.partition;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertStatements;
import static io.durablebatch.deployment.test.RepositoryTestSupport.freshJobName;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.deployment.test.RepositoryFixtures;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobInstanceKey;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepName;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.flow.NodeId;
import io.durablebatch.repository.flow.StartLimit;
import io.durablebatch.repository.partition.OpenPartitionPlan;
import io.durablebatch.repository.partition.StepPartition;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.partition.PartitionStore;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.test.QuarkusUnitTest;

/**
 * How workers of any process find work: the open partition plans, i.e. STARTED parents of STARTED job
 * executions with unassigned partitions, of the named jobs; bounded, oldest first, one indexed statement.
 */
class OpenPartitionPlansTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RepositoryTestSupport.repositoryApp(PartitionFixture.class);

    @Inject
    RepositoryFixtures given;

    @Inject
    KernelRepository repository;

    @Inject
    MetadataSql sql;

    @Inject
    PartitionStore partitionStore;

    @Inject
    AgroalDataSource dataSource;

    private int runs;

    /** A new instance of {@code job} whose first attempt is in {@code status}. */
    private JobExecution execution(JobName job, ExecutionStatus status) {
        JobInstanceKey key = JobInstanceKey.of(job, Map.of("run", (long) ++runs));
        return given.attemptIn(tx(() -> repository.selectOrCreateJobInstance(key).instance()).id(), status);
    }

    /** A STARTED flow step (a parent) of {@code execution} with a plan of {@code partitions} partitions. */
    private StepExecution plannedParent(JobExecution execution, int partitions) {
        return tx(() -> {
            StepExecution created = repository.createFlowStepExecution(execution.id(), StepName.of("import"),
                    NodeId.of("import"), StartLimit.UNLIMITED);
            StepExecution started = repository.transitionStepExecution(created.id(), created.version(),
                    LifecycleTransition.to(ExecutionStatus.STARTED, now()));
            repository.createStepPartitionPlan(started.id(), PartitionFixture.entries(partitions));
            return started;
        });
    }

    private List<OpenPartitionPlan> open(List<JobName> jobs, int limit) {
        return tx(() -> repository.openStepPartitionPlans(jobs, limit));
    }

    @Test
    void listsOnlyStartedParentsOfStartedExecutionsWithUnassignedPartitionsOfTheNamedJobs() {
        JobName job = freshJobName("open");
        JobName other = freshJobName("other");

        StepExecution open = plannedParent(execution(job, ExecutionStatus.STARTED), 2);

        // every partition assigned: nothing left to claim
        JobExecution busy = execution(job, ExecutionStatus.STARTED);
        StepExecution busyParent = plannedParent(busy, 1);
        StepExecution busyWorker = given.stepIn(busy.id(), "worker", ExecutionStatus.STARTED);
        assertTrue(tx(() -> repository.claimNextStepPartition(busyParent.id(), busyWorker.id())).isPresent());

        // the parent stopped (its job still runs): it hands out no more work
        StepExecution stoppedParent = plannedParent(execution(job, ExecutionStatus.STARTED), 2);
        given.endStep(stoppedParent, ExecutionStatus.STOPPED, "STOPPED", PartitionFixture.counters(0, 0));

        // the job execution is stopping: its workers stop too
        JobExecution stopping = execution(job, ExecutionStatus.STARTED);
        plannedParent(stopping, 2);
        tx(() -> given.drive(repository.getJobExecution(stopping.id()).orElseThrow(), ExecutionStatus.STOPPING));

        // another job, not asked for
        StepExecution otherParent = plannedParent(execution(other, ExecutionStatus.STARTED), 2);

        List<OpenPartitionPlan> found = open(List.of(job), 100);
        assertEquals(List.of(new OpenPartitionPlan(open.id(), open.jobExecutionId(), job, NodeId.of("import"),
                Optional.empty())), found);
        assertEquals(List.of(open.id(), otherParent.id()), open(List.of(job, other), 100).stream()
                .map(OpenPartitionPlan::parent).toList(), "oldest parent first");
        assertEquals(List.of(), open(List.of(), 100), "no job, no plan");
    }

    @Test
    void boundedByTheLimitInOneStatement() {
        JobName job = freshJobName("bounded");
        List<StepExecution> parents = List.of(plannedParent(execution(job, ExecutionStatus.STARTED), 1),
                plannedParent(execution(job, ExecutionStatus.STARTED), 1),
                plannedParent(execution(job, ExecutionStatus.STARTED), 1));
        List<OpenPartitionPlan> firstTwo = tx(() -> assertStatements(sql, 1,
                () -> repository.openStepPartitionPlans(List.of(job), 2)));
        assertEquals(List.of(parents.get(0).id(), parents.get(1).id()),
                firstTwo.stream().map(OpenPartitionPlan::parent).toList());
        assertThrows(IllegalArgumentException.class, () -> open(List.of(job), 0));
        assertThrows(IllegalArgumentException.class, () -> open(List.of(job), KernelRepository.MAX_OPEN_PLANS + 1));
    }

    @Test
    void aRestartedPlanNamesThePlanItRestarts() {
        JobName job = freshJobName("restarted");
        JobExecution first = execution(job, ExecutionStatus.STARTED);
        StepExecution firstParent = plannedParent(first, 2);
        StepPartition p1 = tx(() -> repository.stepPartitionPlan(firstParent.id())).get(0);
        StepExecution worker = given.stepIn(first.id(), "worker", ExecutionStatus.STARTED);
        tx(() -> repository.assignStepPartition(p1.id(), p1.version(), worker.id()));
        given.endStep(worker, ExecutionStatus.FAILED, "FAILED", PartitionFixture.counters(1, 1));
        given.endStep(firstParent, ExecutionStatus.FAILED, "FAILED", PartitionFixture.counters(1, 1));
        tx(() -> given.drive(repository.getJobExecution(first.id()).orElseThrow(), ExecutionStatus.FAILED));

        JobExecution second = given.attemptIn(first.jobInstanceId(), ExecutionStatus.STARTED);
        StepExecution secondParent = tx(() -> {
            StepExecution created = repository.createFlowStepExecution(second.id(), StepName.of("import"),
                    NodeId.of("import"), StartLimit.UNLIMITED);
            StepExecution started = repository.transitionStepExecution(created.id(), created.version(),
                    LifecycleTransition.to(ExecutionStatus.STARTED, now()));
            repository.restartStepPartitionPlan(firstParent.id(), started.id());
            return started;
        });
        assertEquals(List.of(new OpenPartitionPlan(secondParent.id(), second.id(), job, NodeId.of("import"),
                Optional.of(firstParent.id()))), open(List.of(job), 10));
    }

    @Test
    void theStatementIsServedByThePartialIndexes() throws SQLException {
        String statement = partitionStore.openStatement().numberedText();
        try (Connection connection = dataSource.getConnection(); Statement explain = connection.createStatement()) {
            explain.execute("SET enable_seqscan = off");
            explain.execute("PREPARE open_plans (varchar[], integer) AS " + statement);
            StringBuilder plan = new StringBuilder();
            try (ResultSet rows = explain.executeQuery("EXPLAIN EXECUTE open_plans('{import}', 10)")) {
                while (rows.next()) {
                    plan.append(rows.getString(1)).append('\n');
                }
            } finally {
                explain.execute("DEALLOCATE open_plans");
                explain.execute("RESET enable_seqscan");
            }
            assertTrue(plan.toString().contains("dbatch_step_execution_running_node_ix"), plan.toString());
            assertTrue(plan.toString().contains("dbatch_step_partition_unassigned_ix"), plan.toString());
            assertTrue(plan.toString().contains("Limit"), plan.toString());
        }
    }
}
