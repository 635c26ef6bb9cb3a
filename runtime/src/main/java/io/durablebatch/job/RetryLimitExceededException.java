package io.durablebatch.job;

/**
 * A step's chunks threw retryable exceptions more often than its retry limit allows, and the last
 * one could not be skipped; the step fails with this exception, whose cause is that last one.
 */
public final class RetryLimitExceededException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public RetryLimitExceededException(String stepName, int limit, Throwable last) {
        super("step '" + stepName + "' exceeded its retry limit of " + limit + ": " + last, last);
    }
}
