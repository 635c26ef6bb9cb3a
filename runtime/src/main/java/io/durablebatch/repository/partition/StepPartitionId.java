package io.durablebatch.repository.partition;

import io.durablebatch.Checks;

/** Opaque identifier of one partition of a partition plan, assigned by the repository. */
public record StepPartitionId(long value) {

    public StepPartitionId {
        Checks.positive(value, "stepPartitionId");
    }

    public static StepPartitionId of(long value) {
        return new StepPartitionId(value);
    }

    @Override
    public String toString() {
        return Long.toString(value);
    }
}
