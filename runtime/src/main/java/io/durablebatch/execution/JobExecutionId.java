package io.durablebatch.execution;

import io.durablebatch.Checks;

/** Opaque identifier of a job execution, assigned by the repository. */
public record JobExecutionId(long value) {

    public JobExecutionId {
        Checks.positive(value, "jobExecutionId");
    }

    public static JobExecutionId of(long value) {
        return new JobExecutionId(value);
    }

    @Override
    public String toString() {
        return Long.toString(value);
    }
}
