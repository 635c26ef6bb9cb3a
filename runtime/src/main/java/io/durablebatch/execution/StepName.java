package io.durablebatch.execution;

import io.durablebatch.Checks;

/** The durable name of a step, as recorded on each of its step executions. */
public record StepName(String value) {

    public static final int MAX_LENGTH = 100;

    public StepName {
        Checks.text(value, "stepName", MAX_LENGTH);
    }

    public static StepName of(String value) {
        return new StepName(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
