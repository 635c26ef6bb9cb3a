package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.job.Steps.tasklet;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import jakarta.enterprise.inject.Produces;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RepeatStatus;
import io.quarkus.test.QuarkusUnitTest;

/** Two definitions of one job name fail startup. */
class DuplicateJobNameTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(Jobs.class))
            .assertException(e -> assertTrue(String.valueOf(e.getMessage()).contains("job 'twice' is defined twice")
                    || String.valueOf(e.getCause()).contains("job 'twice' is defined twice"), e::toString));

    static class Jobs {
        @Produces
        JobDefinition first() {
            return Job.named("twice").start(tasklet("a", context -> RepeatStatus.FINISHED)).build();
        }

        @Produces
        JobDefinition second() {
            return Job.named("twice").start(tasklet("b", context -> RepeatStatus.FINISHED)).build();
        }
    }

    @Test
    void startupFails() {
        fail("startup should have failed");
    }
}
