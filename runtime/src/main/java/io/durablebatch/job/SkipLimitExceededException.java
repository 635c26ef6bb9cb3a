package io.durablebatch.job;

/**
 * A step skipped more exceptions of one type than its skip limit for the type allows, or more in all
 * than its total skip limit; the step fails.
 */
public final class SkipLimitExceededException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public SkipLimitExceededException(String stepName, Class<? extends Throwable> type, int limit, Throwable last) {
        // the type is named once: the last skipped exception's message follows, or its own type where that differs
        super("step '" + stepName + "' exceeded its skip limit of " + limit + " for " + type.getName() + ": "
                + (last.getClass() == type ? String.valueOf(last.getMessage()) : last.toString()), last);
    }

    public SkipLimitExceededException(String stepName, int limit, Throwable last) {
        super("step '" + stepName + "' exceeded its skip limit of " + limit + " skip(s) in all: " + last, last);
    }
}
