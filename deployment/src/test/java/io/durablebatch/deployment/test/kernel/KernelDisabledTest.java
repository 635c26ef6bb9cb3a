package io.durablebatch.deployment.test.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.execution.JobInstanceKey;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.repository.spi.KernelRepository;
import io.quarkus.arc.Arc;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code quarkus.durable-batch.kernel.enabled=false} leaves the job repository alone: no operator,
 * none of the kernel's beans and none of its threads, while the repository works as before.
 */
class KernelDisabledTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RepositoryTestSupport.repositoryApp()
            .overrideConfigKey("quarkus.durable-batch.kernel.enabled", "false");

    @Inject
    KernelRepository repository;

    @Test
    void theRepositoryWorksWithoutTheKernel() {
        JobInstanceKey key = RepositoryTestSupport.freshKey("kernelDisabled");
        var created = RepositoryTestSupport.tx(() -> repository.selectOrCreateJobInstance(key));
        assertEquals(key, created.instance().key());
    }

    @Test
    void nothingOfTheKernelIsRegisteredOrRunning() {
        assertTrue(Arc.container().select(JobOperator.class).isUnsatisfied(), "no JobOperator bean");
        assertTrue(Arc.container().beanManager().getBeans(Object.class).stream()
                .noneMatch(bean -> bean.getBeanClass().getPackageName().equals("io.durablebatch.runtime.job")),
                "no bean of the kernel's package");
        assertTrue(Thread.getAllStackTraces().keySet().stream().noneMatch(t -> t.getName().startsWith("durable-batch-")),
                "no thread of the kernel");
    }
}
