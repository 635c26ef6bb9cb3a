package io.durablebatch.jakarta.runtime.execution;

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
    private volatile Serializable persistentUserData;
    private volatile boolean persistentUserDataSet;

    JakartaStepContext(String stepName, long stepExecutionId, Map<String, String> properties, JakartaJobContext job,
            Serializable resumedUserData) {
        super(properties);
        this.persistentUserData = resumedUserData;
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

    /** The data set last in this attempt, else the one the step's previous attempt kept, which it resumes. */
    @Override
    public Serializable getPersistentUserData() {
        return persistentUserData;
    }

    /**
     * Kept with the step execution when the attempt ends (completed, failed or stopped), as it is
     * then, and given back to the step's next attempt on restart (see {@link PersistentUserData}).
     */
    @Override
    public void setPersistentUserData(Serializable data) {
        this.persistentUserData = data;
        this.persistentUserDataSet = true;
    }

    /** Whether the attempt set its persistent user data, which it then keeps. */
    boolean persistentUserDataSet() {
        return persistentUserDataSet;
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
