package io.durablebatch.runtime.jakarta.execution;

import java.io.Serializable;
import java.util.Map;

import jakarta.batch.runtime.BatchStatus;
import jakarta.batch.runtime.Metric;
import jakarta.batch.runtime.context.StepContext;

import io.durablebatch.execution.StepCounters;

/** The {@link StepContext} of one step attempt, for the artifacts it runs. */
class JakartaStepContext extends ElementContext implements StepContext {

    private final String stepName;
    private final long stepExecutionId;
    private final JakartaJobContext job;
    private volatile String exitStatus;
    private volatile Exception exception;

    JakartaStepContext(String stepName, long stepExecutionId, Map<String, String> properties, JakartaJobContext job) {
        super(properties);
        this.stepName = stepName;
        this.stepExecutionId = stepExecutionId;
        this.job = job;
    }

    /** The job's context, which the step's artifacts are given next to this one. */
    JakartaJobContext jobContext() {
        return job;
    }

    @Override
    public String getStepName() {
        return stepName;
    }

    @Override
    public long getStepExecutionId() {
        return stepExecutionId;
    }

    /** A batchlet step has no checkpoint, so nothing to keep across attempts. */
    @Override
    public Serializable getPersistentUserData() {
        return null;
    }

    /**
     * Refused: a batchlet step commits once, at its end, and the kernel has no place yet to store
     * user data with it; accepting it would lose it on restart without a word.
     */
    @Override
    public void setPersistentUserData(Serializable data) {
        throw new UnsupportedOperationException("StepContext.setPersistentUserData of step " + stepName
                + ": persistent user data is not supported yet");
    }

    @Override
    public BatchStatus getBatchStatus() {
        return job.getBatchStatus();
    }

    @Override
    public String getExitStatus() {
        return exitStatus;
    }

    @Override
    public void setExitStatus(String status) {
        this.exitStatus = status;
    }

    @Override
    public Exception getException() {
        return exception;
    }

    void failedWith(Exception failure) {
        this.exception = failure;
    }

    /** A batchlet's step commits nothing before its end: every counter is still zero while it runs. */
    @Override
    public Metric[] getMetrics() {
        return StepMetrics.of(StepCounters.ZERO);
    }
}
