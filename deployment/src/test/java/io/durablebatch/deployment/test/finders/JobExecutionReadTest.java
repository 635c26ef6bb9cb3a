package io.durablebatch.deployment.test.finders;

import static io.durablebatch.deployment.test.RepositoryTestSupport.freshKey;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.execution.DefinitionIdentity;
import io.durablebatch.execution.ExecutionFailure;
import io.durablebatch.execution.ExecutionParameters;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstance;
import io.durablebatch.execution.PlanFingerprint;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.spi.KernelRepository;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code getJobExecution} reads the row by plain JDBC (issue 29: it is the read an awaiting operator
 * polls), not through Hibernate's entity mapping as the transitions do: both must give the same value,
 * every column included (definition, parameters, failure, times, version).
 */
class JobExecutionReadTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp();

    @Inject
    KernelRepository repository;

    @Test
    void readsEveryColumnAsTheEntityMappingDoes() {
        JobInstance instance = tx(() -> repository.selectOrCreateJobInstance(freshKey("read"))).instance();
        byte[] fingerprint = new byte[32];
        fingerprint[0] = 7;
        DefinitionIdentity definition = new DefinitionIdentity(instance.jobName(), "r1", PlanFingerprint.of(fingerprint));
        JobExecution created = tx(() -> repository.createJobExecution(JobExecutionRequest.of(instance.id())
                .definedBy(definition).withParameters(ExecutionParameters.of(Map.of("limit", 5L, "mode", "full")))));
        assertEquals(created, read(created.id()), "as created");
        JobExecution started = tx(() -> repository.transitionJobExecution(created.id(), created.version(),
                LifecycleTransition.to(ExecutionStatus.STARTED, now())));
        assertEquals(started, read(created.id()), "as started");
        JobExecution failed = tx(() -> repository.transitionJobExecution(created.id(), started.version(),
                LifecycleTransition.to(ExecutionStatus.FAILED, now())
                        .withFailure(new ExecutionFailure("java.lang.IllegalStateException", "broke"))));
        assertTrue(failed.failure().isPresent() && failed.endedAt().isPresent() && failed.definition().isPresent());
        assertEquals(failed, read(created.id()), "as failed, every column set");
        assertTrue(tx(() -> repository.getJobExecution(JobExecutionId.of(Long.MAX_VALUE))).isEmpty(), "none");
    }

    private JobExecution read(JobExecutionId id) {
        return tx(() -> repository.getJobExecution(id)).orElseThrow();
    }
}
