package io.durablebatch.repository.control;

import io.durablebatch.Checks;

/**
 * The identity of the process that runs an execution, e.g. {@code node-a/boot-7f3c}. It is
 * evidence of who started the attempt, not a lease: it never expires and never lets another
 * process take the attempt over.
 */
public record OwnerToken(String value) {

    public static final int MAX_LENGTH = 200;

    public OwnerToken {
        Checks.token(value, "owner", MAX_LENGTH);
    }

    public static OwnerToken of(String value) {
        return new OwnerToken(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
