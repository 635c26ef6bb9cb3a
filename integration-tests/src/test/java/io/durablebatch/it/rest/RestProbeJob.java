package io.durablebatch.it.rest;

import static io.durablebatch.job.Steps.tasklet;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RepeatStatus;

/**
 * The job the REST API tests drive: one tasklet whose non-identifying parameter {@code mode} says
 * what it does: {@code wait} runs (committing every 20 ms) until stopped, {@code fail} fails,
 * anything else completes. A restart with another mode changes what the next attempt does.
 */
@Singleton
public class RestProbeJob {

    static final String NAME = "restProbe";

    @Produces
    JobDefinition restProbe() {
        return Job.named(NAME).revision("1").start(tasklet("probe", context -> {
            String mode = context.parameters().string("mode");
            if (mode.equals("wait")) {
                Thread.sleep(20);
                return RepeatStatus.CONTINUABLE;
            } else if (mode.equals("fail")) {
                throw new IllegalStateException("the probe failed, as asked");
            }
            return RepeatStatus.FINISHED;
        })).build();
    }
}
