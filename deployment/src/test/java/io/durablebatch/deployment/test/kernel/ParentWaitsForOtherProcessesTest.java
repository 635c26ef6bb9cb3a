package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.deployment.test.kernel.KernelTestSupport.rangePlan;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.call;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.freshRun;
import static io.durablebatch.job.Steps.chunk;
import static io.durablebatch.job.Steps.partitioned;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.deployment.test.kernel.KernelTestSupport.RangeReader;
import io.durablebatch.deployment.test.kernel.KernelTestSupport.Row;
import io.durablebatch.deployment.test.kernel.KernelTestSupport.TargetWriter;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.JobOperator;
import io.durablebatch.partition.StepPartition;
import io.durablebatch.repository.ExecutionStatus;
import io.durablebatch.repository.JobExecution;
import io.durablebatch.repository.JobExecutionId;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.StepExecution;
import io.durablebatch.repository.StepName;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The parent of a partitioned step waits for the partitions that workers of other processes claimed:
 * even when a stop leaves partitions unassigned, it ends STOPPED only once no partition is running,
 * so a restart never finds a worker of the stopped plan still at work.
 */
class ParentWaitsForOtherProcessesTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, KernelTestSupport.class, Jobs.class))
            .overrideConfigKey("quarkus.durable-batch.control.poll-interval", "100ms");

    static final int PARTITIONS = 6;
    static final int PER_PARTITION = 200;


    @Singleton
    static class Jobs {
        @Inject
        AgroalDataSource dataSource;

        @Produces
        JobDefinition slowPartitions() {
            TargetWriter target = new TargetWriter(dataSource);
            return Job.named("slowPartitions")
                    .start(partitioned("load", context -> rangePlan(PARTITIONS, PER_PARTITION),
                            chunk("loadRange", 10).reader(KernelTestSupport::rangeOf)
                                    .writer((List<? extends Row> items) -> {
                                        Thread.sleep(20);
                                        target.write(items);
                                    }).build())
                            .withWorkers(1))
                    .build();
        }
    }

    @Inject
    JobOperator operator;

    @Inject
    JobRepository repository;

    @Inject
    AgroalDataSource dataSource;

    @BeforeEach
    void createTarget() throws SQLException {
        KernelTestSupport.createTarget(dataSource);
    }

    StepExecution step(JobExecutionId execution, String name) {
        return tx(() -> repository.stepExecutions(execution)).stream().filter(s -> s.stepName().value().equals(name))
                .findFirst().orElseThrow();
    }

    StepExecution awaitPlannedParent(JobExecutionId execution) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (true) {
            Optional<StepExecution> parent = tx(() -> repository.stepExecutions(execution)).stream()
                    .filter(s -> s.stepName().value().equals("load")).findFirst();
            if (parent.isPresent() && !tx(() -> repository.stepPartitionPlan(parent.get().id())).isEmpty()) {
                return parent.get();
            }
            assertTrue(System.nanoTime() < deadline, "the parent never published its plan");
            Thread.sleep(10);
        }
    }

    @Test
    void aStoppedParentWaitsForAPartitionRunningInAnotherProcess() throws Exception {
        JobExecutionId execution = operator.start("slowPartitions", KernelTestSupport.run(freshRun()), call());
        StepExecution parent = awaitPlannedParent(execution);

        // another process's worker claims a partition and is still running it
        StepExecution otherWorker = tx(() -> {
            StepExecution created = repository.createStepExecution(execution, StepName.of("loadRange"));
            return repository.transitionStepExecution(created.id(), created.version(),
                    LifecycleTransition.to(ExecutionStatus.STARTED, now()));
        });
        StepPartition claimed = tx(() -> repository.claimNextStepPartition(parent.id(), otherWorker.id())).orElseThrow();

        operator.stop(execution, call());
        // the local worker stops at its next chunk; the parent must keep waiting for the other process
        Thread.sleep(1500);
        assertEquals(ExecutionStatus.STARTED, step(execution, "load").status(),
                "the parent does not end while a partition is running elsewhere");
        List<StepPartition> plan = tx(() -> repository.stepPartitionPlan(parent.id()));
        assertTrue(plan.stream().anyMatch(StepPartition::isUnassigned), "the stop left partitions unassigned");

        // the other process observes the stop at its chunk boundary and ends its partition
        tx(() -> {
            StepExecution current = repository.getStepExecution(otherWorker.id()).orElseThrow();
            StepExecution stopping = repository.transitionStepExecution(current.id(), current.version(),
                    LifecycleTransition.to(ExecutionStatus.STOPPING, now()));
            repository.transitionStepExecution(stopping.id(), stopping.version(),
                    LifecycleTransition.to(ExecutionStatus.STOPPED, now()));
            return repository.completeStepPartition(claimed.id(), claimed.version(), otherWorker.id());
        });
        JobExecution ended = operator.await(execution, Duration.ofSeconds(20));
        assertEquals(ExecutionStatus.STOPPED, ended.status());
        assertEquals(ExecutionStatus.STOPPED, step(execution, "load").status());
    }
}
