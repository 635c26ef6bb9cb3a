package io.durablebatch.jakarta.runtime.operator;

import jakarta.batch.runtime.JobInstance;

/** A job instance as Jakarta shows it; equal by id, so a caller can hand it back. */
record JakartaJobInstance(long getInstanceId, String getJobName) implements JobInstance {

    static JakartaJobInstance of(io.durablebatch.execution.JobInstance instance) {
        return new JakartaJobInstance(instance.id().value(), instance.jobName().value());
    }
}
