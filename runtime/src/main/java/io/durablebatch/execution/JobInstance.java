package io.durablebatch.execution;

import java.time.Instant;

/** Snapshot of a job instance: one logical run of a job for one identifying key. */
public record JobInstance(JobInstanceId id, JobInstanceKey key, Instant createdAt) {

    public JobName jobName() {
        return key.jobName();
    }
}
