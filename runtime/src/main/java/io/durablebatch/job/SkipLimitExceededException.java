package io.durablebatch.job;

/** A step skipped more exceptions of one type than its skip limit allows; the step fails. */
public final class SkipLimitExceededException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public SkipLimitExceededException(String stepName, Class<? extends Throwable> type, int limit, Throwable last) {
        super("step '" + stepName + "' exceeded its skip limit of " + limit + " for " + type.getName() + ": "
                + last, last);
    }
}
