package io.durablebatch.execution;

import io.durablebatch.Checks;

/**
 * The outcome code of an execution, which flows branch on, and a free-form description.
 * Unlike the status, the exit code is the user's vocabulary: any printable text of at most
 * {@value #MAX_CODE_LENGTH} characters ({@code EMPTY_INPUT}, {@code VERY GOOD INVOCATION}), without
 * control characters or surrounding white space, as Jakarta Batch exit statuses are free text.
 */
public record ExitStatus(String code, String description) {

    public static final int MAX_CODE_LENGTH = 100;
    public static final int MAX_DESCRIPTION_LENGTH = 2500;

    /** The exit status of an execution that has not ended yet. */
    public static final ExitStatus EXECUTING = new ExitStatus("EXECUTING");

    public ExitStatus {
        Checks.text(code, "exitStatus.code", MAX_CODE_LENGTH);
        Checks.notNull(description, "exitStatus.description");
        if (description.length() > MAX_DESCRIPTION_LENGTH) {
            throw new IllegalArgumentException("exitStatus.description must be at most "
                    + MAX_DESCRIPTION_LENGTH + " characters, got " + description.length());
        }
    }

    public ExitStatus(String code) {
        this(code, "");
    }

    public static ExitStatus of(String code) {
        return new ExitStatus(code);
    }

    /** The exit status an execution gets when it reaches {@code status} without an explicit one. */
    public static ExitStatus defaultFor(ExecutionStatus status) {
        return status.isActive() ? EXECUTING : new ExitStatus(status.name());
    }
}
