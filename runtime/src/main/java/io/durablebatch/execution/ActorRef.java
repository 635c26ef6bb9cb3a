package io.durablebatch.execution;

import io.durablebatch.Checks;

/** Who asked for an audited action: a user, a service account or {@code system:startup}. */
public record ActorRef(String value) {

    public static final int MAX_LENGTH = 200;

    public ActorRef {
        Checks.text(value, "actor", MAX_LENGTH);
    }

    public static ActorRef of(String value) {
        return new ActorRef(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
