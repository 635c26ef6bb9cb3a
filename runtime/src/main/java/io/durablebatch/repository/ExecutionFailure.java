package io.durablebatch.repository;

import io.durablebatch.runtime.Checks;

/** Why an execution failed: the exception type and a message, truncated to a bounded size. */
public record ExecutionFailure(String type, String message) {

    public static final int MAX_TYPE_LENGTH = 300;
    public static final int MAX_MESSAGE_LENGTH = 4000;

    public ExecutionFailure {
        Checks.text(type, "failure.type", MAX_TYPE_LENGTH);
        Checks.notNull(message, "failure.message");
        if (message.length() > MAX_MESSAGE_LENGTH) {
            message = message.substring(0, MAX_MESSAGE_LENGTH - 1) + "\u2026";
        }
    }

    public static ExecutionFailure of(Throwable failure) {
        Checks.notNull(failure, "failure");
        String message = failure.getMessage();
        return new ExecutionFailure(failure.getClass().getName(), message == null ? "" : message);
    }
}
