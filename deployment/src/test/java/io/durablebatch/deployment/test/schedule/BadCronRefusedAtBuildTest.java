package io.durablebatch.deployment.test.schedule;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.quarkus.test.QuarkusUnitTest;

/** A cron expression the build knows and the scheduler's syntax refuses fails the build, naming property and job. */
class BadCronRefusedAtBuildTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RepositoryTestSupport.repositoryApp()
            // Quartz needs '?' in one of the two day fields
            .overrideConfigKey("quarkus.durable-batch.jobs.\"nightly.report\".schedule.cron", "0 0 23 * * *")
            .assertException(e -> {
                String message = e.getMessage() + " " + (e.getCause() == null ? "" : e.getCause().getMessage());
                assertTrue(message.contains("quarkus.durable-batch.jobs.\"nightly.report\".schedule.cron"), message);
                assertTrue(message.contains("job 'nightly.report'"), message);
                assertTrue(message.contains("0 0 23 * * *"), message);
            });

    @Test
    void theBuildFails() {
        fail("the build should have failed");
    }
}
