package io.durablebatch.deployment.test.kernel;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.runtime.job.ChunkFaults;
import io.durablebatch.runtime.testing.TestHooks;
import io.quarkus.arc.Arc;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The kernel's test hooks (failures injected at a chunk, the repository's reset) are beans only
 * when the test library ({@code quarkus-durable-batch-junit}) is on the classpath, as it is not
 * here: an application without it cannot reset its repository, and its chunk loop holds no hook.
 */
class TestHooksOnlyWithTheTestLibraryTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RepositoryTestSupport.repositoryApp();

    @Test
    void noTestHookIsABeanWithoutTheTestLibrary() {
        assertTrue(Arc.container().select(JobOperator.class).isResolvable(), "the kernel runs");
        assertTrue(Arc.container().select(TestHooks.class).isUnsatisfied(), "no TestHooks bean");
        assertTrue(Arc.container().select(ChunkFaults.class).isUnsatisfied(), "no ChunkFaults bean");
    }
}
