package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.job.Steps.tasklet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import jakarta.enterprise.inject.Produces;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.JobDefinitionException;
import io.durablebatch.job.RepeatStatus;
import io.quarkus.test.QuarkusUnitTest;

/** A definition that cannot run fails startup, naming the job and the node. */
class InvalidJobDefinitionTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(Jobs.class))
            .assertException(e -> {
                Throwable cause = e;
                // the application's classes live in another class loader: compare by name
                while (cause != null && !cause.getClass().getName().equals(JobDefinitionException.class.getName())) {
                    cause = cause.getCause();
                }
                if (cause == null) {
                    fail("expected a JobDefinitionException, got " + e);
                }
                assertEquals("job 'broken', node 'missing': the flow refers to this node id, but no node declares it",
                        cause.getMessage());
            });

    static class Jobs {
        @Produces
        JobDefinition broken() {
            return Job.named("broken").start(tasklet("a", context -> RepeatStatus.FINISHED))
                    .on("*").to("missing").build();
        }
    }

    @Test
    void startupFails() {
        fail("startup should have failed");
    }
}
