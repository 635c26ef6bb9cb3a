package io.durablebatch.execution;

import io.durablebatch.Checks;

/**
 * A caller-chosen idempotency key: repeating a request with the same operation id returns the
 * recorded outcome instead of applying it again.
 */
public record OperationId(String value) {

    public static final int MAX_LENGTH = 200;

    public OperationId {
        Checks.token(value, "operationId", MAX_LENGTH);
    }

    public static OperationId of(String value) {
        return new OperationId(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
