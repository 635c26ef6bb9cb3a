package io.durablebatch.execution;

import io.durablebatch.Checks;

/**
 * The outcome code of an execution, which flows branch on, and a free-form description.
 * Unlike the status, the exit code is the user's vocabulary: any printable text of at most
 * {@value #MAX_CODE_LENGTH} characters ({@code EMPTY_INPUT}, {@code VERY GOOD INVOCATION}), without
 * control characters or surrounding white space, as Jakarta Batch exit statuses are free text.
 */
public record ExitStatus(String code, String description) {

    /**
     * The longest exit code: Jakarta Batch sets no bound and builds exit statuses by appending (its
     * TCK reaches 120 characters); 2000 leaves room for that while an exit code stays a status to
     * branch on, not a payload (which belongs in the description or the checkpoint).
     */
    public static final int MAX_CODE_LENGTH = 2000;
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
