package io.durablebatch.execution;

import io.durablebatch.Checks;

/**
 * The compare-and-swap version of a mutable record. Every successful mutation increments it by
 * exactly one; a caller passes the version it observed and is refused if it moved.
 */
public record ExecutionVersion(long value) implements Comparable<ExecutionVersion> {

    /** The version of a record that was just created. */
    public static final ExecutionVersion INITIAL = new ExecutionVersion(0);

    public ExecutionVersion {
        Checks.notNegative(value, "version");
    }

    public static ExecutionVersion of(long value) {
        return new ExecutionVersion(value);
    }

    public ExecutionVersion next() {
        return new ExecutionVersion(value + 1);
    }

    @Override
    public int compareTo(ExecutionVersion other) {
        return Long.compare(value, other.value);
    }

    @Override
    public String toString() {
        return Long.toString(value);
    }
}
