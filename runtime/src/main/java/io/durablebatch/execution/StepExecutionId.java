package io.durablebatch.execution;

import io.durablebatch.Checks;

/** Opaque identifier of a step execution, assigned by the repository. */
public record StepExecutionId(long value) {

    public StepExecutionId {
        Checks.positive(value, "stepExecutionId");
    }

    public static StepExecutionId of(long value) {
        return new StepExecutionId(value);
    }

    @Override
    public String toString() {
        return Long.toString(value);
    }
}
