package io.durablebatch.rest.deployment.test;

import static io.durablebatch.job.Steps.tasklet;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RepeatStatus;

/** A job that completes at once: something to launch under a configured root path. */
@Singleton
public class RootPathJob {

    static final String NAME = "rootPathProbe";

    @Produces
    JobDefinition rootPathProbe() {
        return Job.named(NAME).revision("1").start(tasklet("probe", context -> RepeatStatus.FINISHED)).build();
    }
}
