package io.durablebatch.deployment.test.schedule;

import static io.durablebatch.job.Steps.tasklet;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.schedule.Schedule;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.quarkus.test.QuarkusUnitTest;

/** A schedule the build cannot know (the DSL's) with a bad cron expression fails startup, naming the job. */
class BadCronRefusedAtStartupTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RepositoryTestSupport.repositoryApp(Jobs.class)
            .assertException(e -> {
                Throwable cause = e;
                while (!(cause instanceof ConfigurationException) && cause.getCause() != null) {
                    cause = cause.getCause();
                }
                assertInstanceOf(ConfigurationException.class, cause, e.toString());
                assertTrue(cause.getMessage().contains("Job.named(\"hourly\").schedule(..)"), cause.getMessage());
                assertTrue(cause.getMessage().contains("invalid cron expression '*/5 * * * *' of job 'hourly'"),
                        cause.getMessage());
            });

    @Singleton
    static class Jobs {
        @Produces
        JobDefinition hourly() {
            // a Unix expression, while the scheduler's syntax is Quartz
            return Job.named("hourly").schedule(Schedule.cron("*/5 * * * *"))
                    .start(tasklet("run", context -> RepeatStatus.FINISHED)).build();
        }
    }

    @Test
    void startupFails() {
        fail("startup should have failed");
    }
}
