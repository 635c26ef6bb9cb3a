package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.distinctIds;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.freshRun;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.rangePlan;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.rows;
import static io.durablebatch.job.Steps.chunk;
import static io.durablebatch.job.Steps.partitioned;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.deployment.test.kernel.KernelTestSupport.TargetWriter;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobInstance;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepName;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.PartitionAnalyzer;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.control.OwnerToken;
import io.durablebatch.repository.flow.NodeId;
import io.durablebatch.repository.flow.StartLimit;
import io.durablebatch.repository.partition.StepPartition;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.job.JobRegistry;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Remote partition workers: this process takes part in a partition plan that another process (another
 * owner token) published for a job this process defines, claiming and completing its partitions with
 * the same worker step attempts as the parent's own workers; plans of a definition it does not run
 * are left alone.
 */
class RemotePartitionWorkersTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, KernelTestSupport.class, Jobs.class))
            .overrideConfigKey("quarkus.durable-batch.partitions.remote-workers.enabled", "true")
            .overrideConfigKey("quarkus.durable-batch.partitions.remote-workers.poll-interval", "100ms")
            .overrideConfigKey("quarkus.durable-batch.partitions.remote-workers.concurrency", "2");

    static final int PARTITIONS = 4;
    static final int PER_PARTITION = 300;
    static final OwnerToken OTHER_PROCESS = OwnerToken.of("other-node/b007");

    /** What setting the job's exit status did in each worker of "remoteSetting". */
    static final Queue<String> JOB_EXIT_SETTINGS = new ConcurrentLinkedQueue<>();

    @Singleton
    static class Jobs {
        @Inject
        AgroalDataSource dataSource;

        /** Like remoteLoad; each worker tries to set the job's exit status as it opens its writer. */
        @Produces
        JobDefinition remoteSetting() {
            return Job.named("remoteSetting")
                    .start(partitioned("load", context -> rangePlan(PARTITIONS, PER_PARTITION),
                            chunk("loadRange", 100).reader(KernelTestSupport::rangeOf).writer(context -> {
                                try {
                                    context.job().setExitStatus(ExitStatus.of("SET BY A REMOTE WORKER"));
                                    JOB_EXIT_SETTINGS.add("accepted");
                                } catch (IllegalStateException e) {
                                    JOB_EXIT_SETTINGS.add(e.getMessage());
                                }
                                return new TargetWriter(dataSource);
                            }).build()))
                    .build();
        }

        /** Like remoteLoad, with an analyzer: its data travels in memory, so only its own process works it. */
        @Produces
        JobDefinition remoteAnalyzed() {
            return Job.named("remoteAnalyzed")
                    .start(partitioned("load", context -> rangePlan(PARTITIONS, PER_PARTITION),
                            chunk("loadRange", 100).reader(KernelTestSupport::rangeOf)
                                    .writer(context -> new TargetWriter(dataSource)).build())
                            .analyzer(new PartitionAnalyzer() {
                            }))
                    .build();
        }

        @Produces
        JobDefinition remoteLoad() {
            return Job.named("remoteLoad")
                    .start(partitioned("load", context -> rangePlan(PARTITIONS, PER_PARTITION),
                            chunk("loadRange", 100).reader(KernelTestSupport::rangeOf)
                                    .writer(context -> new TargetWriter(dataSource)).build()))
                    .build();
        }
    }

    @Inject
    KernelRepository repository;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    JobRegistry registry;

    @BeforeEach
    void createTarget() throws SQLException {
        KernelTestSupport.createTarget(dataSource);
    }

    /**
     * What the parent's process does before its workers start, as another process: a STARTED execution
     * it owns, the parent step attempt STARTED and its plan published.
     */
    StepExecution publishedElsewhere(JobDefinition definition, String run) {
        return tx(() -> {
            JobInstance instance = repository.selectOrCreateJobInstance(KernelTestSupport.run(run)
                    .keyFor(definition.name())).instance();
            JobExecution created = repository
                    .createJobExecution(JobExecutionRequest.of(instance.id()).definedBy(definition.identity()));
            JobExecution owned = repository.claimExecutionOwner(created.id(), created.version(), OTHER_PROCESS, now());
            repository.transitionJobExecution(owned.id(), owned.version(),
                    LifecycleTransition.to(ExecutionStatus.STARTED, now()));
            StepExecution parent = repository.createFlowStepExecution(created.id(), StepName.of("load"),
                    NodeId.of("load"), StartLimit.UNLIMITED);
            StepExecution started = repository.transitionStepExecution(parent.id(), parent.version(),
                    LifecycleTransition.to(ExecutionStatus.STARTED, now()));
            repository.createStepPartitionPlan(started.id(), rangePlan(PARTITIONS, PER_PARTITION));
            return started;
        });
    }

    List<StepPartition> awaitEnded(StepExecution parent) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            List<StepPartition> plan = tx(() -> repository.stepPartitionPlan(parent.id()));
            if (plan.stream().noneMatch(p -> p.status() == ExecutionStatus.STARTING || p.status() == ExecutionStatus.STARTED)) {
                return plan;
            }
            assertTrue(System.nanoTime() < deadline, "the remote workers did not work the plan off: " + plan);
            Thread.sleep(50);
        }
    }

    @Test
    void claimsAndCompletesEveryPartitionOfAPlanPublishedByAnotherProcess() throws Exception {
        String run = freshRun();
        StepExecution parent = publishedElsewhere(registry.get("remoteLoad"), run);

        List<StepPartition> plan = awaitEnded(parent);
        assertTrue(plan.stream().allMatch(p -> p.status() == ExecutionStatus.COMPLETED), plan.toString());
        List<StepExecution> workers = tx(() -> repository.stepExecutions(parent.jobExecutionId())).stream()
                .filter(step -> step.stepName().value().equals("loadRange")).toList();
        assertEquals(PARTITIONS, workers.size(), "one worker step attempt per partition, no empty claim left behind");
        assertTrue(workers.stream().allMatch(w -> w.status() == ExecutionStatus.COMPLETED));
        assertEquals(workers.stream().map(w -> w.id().value()).sorted().toList(),
                plan.stream().map(p -> p.worker().orElseThrow().value()).sorted().toList(), "each partition names its worker");
        assertTrue(plan.stream().allMatch(p -> p.counters().writeCount() == PER_PARTITION));
        assertEquals(PARTITIONS * PER_PARTITION, rows(dataSource, run));
        assertEquals(PARTITIONS * PER_PARTITION, distinctIds(dataSource, run), "every item written once");
        // the parent is the other process's to aggregate: remote workers never touch it
        StepExecution after = tx(() -> repository.getStepExecution(parent.id())).orElseThrow();
        assertEquals(ExecutionStatus.STARTED, after.status());
        assertEquals(parent.version(), after.version());
    }

    @Test
    void aRemoteWorkerCannotSetTheExitStatusOfAnEndAnotherProcessRecords() throws Exception {
        JOB_EXIT_SETTINGS.clear();
        StepExecution parent = publishedElsewhere(registry.get("remoteSetting"), freshRun());
        awaitEnded(parent);
        assertEquals(PARTITIONS, JOB_EXIT_SETTINGS.size(), JOB_EXIT_SETTINGS.toString());
        assertTrue(JOB_EXIT_SETTINGS.stream().allMatch(message -> message.contains("is run by another process")),
                JOB_EXIT_SETTINGS.toString());
    }

    @Test
    void leavesAloneThePlanOfAStepWithAnAnalyzer() throws Exception {
        leavesAlone(registry.get("remoteAnalyzed"));
    }

    @Test
    void leavesAloneThePlanOfADefinitionItDoesNotRun() throws Exception {
        JobDefinition other = Job.named("remoteLoad").revision("other")
                .start(partitioned("load", context -> rangePlan(PARTITIONS, PER_PARTITION),
                        chunk("loadRange", 100).reader(KernelTestSupport::rangeOf)
                                .writer(context -> new TargetWriter(dataSource)).build()))
                .build();
        leavesAlone(other);
    }

    private void leavesAlone(JobDefinition definition) throws Exception {
        String run = freshRun();
        StepExecution parent = publishedElsewhere(definition, run);
        Thread.sleep(1000); // ten poll intervals
        List<StepPartition> plan = tx(() -> repository.stepPartitionPlan(parent.id()));
        assertTrue(plan.stream().allMatch(StepPartition::isUnassigned), plan.toString());
        assertEquals(0, rows(dataSource, run));
        // end it, so no later test sees an open plan
        tx(() -> {
            StepExecution current = repository.getStepExecution(parent.id()).orElseThrow();
            StepExecution stopping = repository.transitionStepExecution(current.id(), current.version(),
                    LifecycleTransition.to(ExecutionStatus.STOPPING, now()));
            return repository.transitionStepExecution(stopping.id(), stopping.version(),
                    LifecycleTransition.to(ExecutionStatus.STOPPED, now()));
        });
    }
}
