package io.durablebatch.execution;

import io.durablebatch.Checks;

/** A short machine-readable reason recorded with an audited decision, e.g. {@code OWNER_LOST}. */
public record ReasonCode(String value) {

    public static final int MAX_LENGTH = 100;

    public ReasonCode {
        Checks.token(value, "reason", MAX_LENGTH);
    }

    public static ReasonCode of(String value) {
        return new ReasonCode(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
