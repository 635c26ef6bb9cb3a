package io.durablebatch.test;

import java.util.function.BooleanSupplier;

import org.opentest4j.AssertionFailedError;

/**
 * A failure {@link JobTester#failAt} armed at a chunk: whether it has fired. A test that expects it
 * asserts so, so that a chunk number the step never reaches cannot pass unnoticed.
 */
public final class InjectedFailure {

    private final String jobName;
    private final String stepName;
    private final long chunk;
    private final Exception failure;
    private final BooleanSupplier fired;

    InjectedFailure(String jobName, String stepName, long chunk, Exception failure, BooleanSupplier fired) {
        this.jobName = jobName;
        this.stepName = stepName;
        this.chunk = chunk;
        this.failure = failure;
        this.fired = fired;
    }

    /** Whether a chunk has thrown it. */
    public boolean fired() {
        return fired.getAsBoolean();
    }

    /** Asserts that a chunk has thrown it. */
    public void assertFired() {
        if (!fired()) {
            throw new AssertionFailedError(this + " has not fired: the step never wrote that chunk");
        }
    }

    @Override
    public String toString() {
        return "the failure " + failure + " at chunk " + chunk + " of step '" + stepName + "' of job '" + jobName + "'";
    }
}
