package io.durablebatch.runtime.jakarta.execution;

import java.util.Map;

import jakarta.batch.runtime.BatchStatus;
import jakarta.batch.runtime.context.JobContext;

/**
 * The {@link JobContext} of one running execution, shared by its steps: one per execution in this
 * process, dropped when the execution ends.
 */
final class JakartaJobContext extends ElementContext implements JobContext {

    private final String jobName;
    private final long instanceId;
    private final long executionId;
    private volatile boolean stopping;

    JakartaJobContext(String jobName, long instanceId, long executionId, Map<String, String> properties) {
        super(properties);
        this.jobName = jobName;
        this.instanceId = instanceId;
        this.executionId = executionId;
    }

    /** The {@code id} of the job XML's {@code <job>}, as the specification defines the job name. */
    @Override
    public String getJobName() {
        return jobName;
    }

    @Override
    public long getInstanceId() {
        return instanceId;
    }

    @Override
    public long getExecutionId() {
        return executionId;
    }

    @Override
    public BatchStatus getBatchStatus() {
        return stopping ? BatchStatus.STOPPING : BatchStatus.STARTED;
    }

    /** No artifact can set it yet (see {@link #setExitStatus}): the job's exit status is not known while it runs. */
    @Override
    public String getExitStatus() {
        return null;
    }

    /**
     * Refused: the kernel records a job's exit status from its end (its transition), and has no way
     * yet to take one from an artifact. Accepting it without recording it would lose it silently.
     */
    @Override
    public void setExitStatus(String status) {
        throw new UnsupportedOperationException("JobContext.setExitStatus(\"" + status + "\") of job " + jobName
                + ": setting the job's exit status from an artifact is not supported yet; end the job with a transition");
    }

    void stopping() {
        stopping = true;
    }
}
