package io.durablebatch.deployment.test;

import static io.durablebatch.job.Steps.tasklet;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;

/** The job {@value #NAME}, whose every attempt fails at once: each ends FAILED, restartable and abandonable. */
@Singleton
public class FailingJob {

    public static final String NAME = "fails-at-once";

    @Produces
    JobDefinition failsAtOnce() {
        return Job.named(NAME).start(tasklet("only", context -> {
            throw new IllegalStateException("fails, to be restarted");
        })).build();
    }
}
