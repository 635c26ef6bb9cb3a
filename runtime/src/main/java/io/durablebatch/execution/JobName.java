package io.durablebatch.execution;

import io.durablebatch.Checks;

/** The name of a job: the first half of a job instance's identity. */
public record JobName(String value) {

    public static final int MAX_LENGTH = 100;

    public JobName {
        Checks.text(value, "jobName", MAX_LENGTH);
    }

    public static JobName of(String value) {
        return new JobName(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
