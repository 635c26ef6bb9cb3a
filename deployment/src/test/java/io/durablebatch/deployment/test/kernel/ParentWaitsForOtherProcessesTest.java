package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.awaitPlannedParent;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.call;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.freshRun;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.pausing;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.rangePartitions;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.startOtherProcessWorker;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.step;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

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
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.partition.StepPartition;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The parent of a partitioned step waits for the partitions that workers of other processes claimed:
 * even when a stop leaves partitions unassigned, it ends STOPPED only once no partition is running,
 * so a restart never finds a worker of the stopped plan still at work.
 */
class ParentWaitsForOtherProcessesTest extends KernelTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, KernelTest.class,
                    KernelTestSupport.class, Jobs.class))
            .overrideConfigKey("quarkus.durable-batch.control.poll-interval", "100ms");

    static final int PARTITIONS = 6;
    static final int PER_PARTITION = 200;

    @Singleton
    static class Jobs {
        @Inject
        AgroalDataSource dataSource;

        @Produces
        JobDefinition slowPartitions() {
            return Job.named("slowPartitions")
                    .start(rangePartitions(PARTITIONS, PER_PARTITION, 10, pausing(20, new TargetWriter(dataSource)))
                            .withWorkers(1))
                    .build();
        }
    }

    @Test
    void aStoppedParentWaitsForAPartitionRunningInAnotherProcess() throws Exception {
        JobExecutionId execution = operator.start("slowPartitions", KernelTestSupport.run(freshRun()), call());
        StepExecution parent = awaitPlannedParent(repository, execution);

        // another process's worker claims a partition and is still running it
        StepExecution otherWorker = startOtherProcessWorker(repository, execution);
        StepPartition claimed = tx(() -> repository.claimNextStepPartition(parent.id(), otherWorker.id())).orElseThrow();

        operator.stop(execution, call());
        // the local worker stops at its next chunk; the parent must keep waiting for the other process
        Thread.sleep(1500);
        assertEquals(ExecutionStatus.STARTED, step(repository, execution, "load").status(),
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
        assertEquals(ExecutionStatus.STOPPED, step(repository, execution, "load").status());
    }
}
