package io.durablebatch.execution;

import io.durablebatch.Checks;

/** Opaque identifier of a job instance, assigned by the repository. */
public record JobInstanceId(long value) {

    public JobInstanceId {
        Checks.positive(value, "jobInstanceId");
    }

    public static JobInstanceId of(long value) {
        return new JobInstanceId(value);
    }

    @Override
    public String toString() {
        return Long.toString(value);
    }
}
