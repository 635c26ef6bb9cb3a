package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.job.Steps.tasklet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.UUID;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobInstanceKey;
import io.durablebatch.execution.JobName;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.job.JobRegistry;
import io.quarkus.test.QuarkusUnitTest;

/** Job definitions are CDI beans, discovered at startup; their upgrade edges are registered then. */
class JobRegistryTest {

    static final String EVOLVING = "evolving-" + UUID.randomUUID();

    static final JobDefinition V1 = Job.named(EVOLVING).revision("1")
            .start(tasklet("a", context -> RepeatStatus.FINISHED)).build();

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, Jobs.class));

    static class Jobs {
        @Produces
        JobDefinition evolving() {
            return Job.named(EVOLVING).revision("2")
                    .upgradesFrom("1", V1.identity().fingerprint().hex())
                    .start(tasklet("a", context -> RepeatStatus.FINISHED))
                    .next(tasklet("b", context -> RepeatStatus.FINISHED))
                    .build();
        }

        @Produces
        JobDefinition simple() {
            return Job.named("simple").start(tasklet("only", context -> RepeatStatus.FINISHED)).build();
        }
    }

    @Inject
    JobRegistry registry;

    @Inject
    KernelRepository repository;

    @Inject
    JobOperator operator;

    @Test
    void anUndefinedJobIsATypedRefusalThatNamesTheDefinedOnes() {
        var refusal = RepositoryTestSupport.assertRefused(RepositoryError.JOB_NOT_DEFINED,
                () -> operator.start("noSuchJob", JobParameters.of("run", "x"), OperatorCall.by("test")));
        assertTrue(refusal.getMessage().contains("'noSuchJob'") && refusal.getMessage().contains("simple"),
                refusal.getMessage());
        assertTrue(tx(() -> repository.findJobInstance(JobInstanceKey.of(JobName.of("noSuchJob"), Map.of("run", "x"))))
                .isEmpty(), "nothing was created");
    }

    @Test
    void discoversEveryDefinitionBean() {
        assertEquals(2, registry.definitions().size());
        assertEquals("2", registry.get(EVOLVING).revision());
        assertEquals("simple", registry.get("simple").name().value());
    }

    @Test
    void registersDeclaredUpgradesSoACheckpointOfTheOldRevisionRestartsUnderTheNewOne() {
        JobDefinition v2 = registry.get(EVOLVING);
        JobInstanceKey key = JobInstanceKey.of(V1.name(), Map.of("run", UUID.randomUUID().toString()));
        JobExecution first = tx(() -> repository.createJobExecution(
                JobExecutionRequest.of(repository.selectOrCreateJobInstance(key).instance().id()).definedBy(V1.identity())));
        tx(() -> repository.transitionJobExecution(first.id(), first.version(),
                LifecycleTransition.to(ExecutionStatus.FAILED, now())));
        JobExecution restart = tx(
                () -> repository.createJobExecution(JobExecutionRequest.of(first.jobInstanceId()).definedBy(v2.identity())));
        assertEquals(2, restart.attempt());
        assertEquals(v2.identity(), restart.definition().orElseThrow());
    }
}
