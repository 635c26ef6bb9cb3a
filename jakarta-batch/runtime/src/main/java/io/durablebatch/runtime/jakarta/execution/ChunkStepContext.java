package io.durablebatch.runtime.jakarta.execution;

import java.io.Serializable;
import java.util.Map;

import jakarta.batch.runtime.Metric;

import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.job.StepContext;

/**
 * The {@code StepContext} of a chunk step's attempt. Its persistent user data is committed with
 * each chunk's checkpoint ({@link ChunkCheckpoint}) and given back to a restart's attempt before
 * its reader opens; its metrics are the counters of the chunks committed so far; the exit status an
 * artifact sets is handed to the kernel at once, so the chunk that completes the step records it.
 */
final class ChunkStepContext extends JakartaStepContext {

    private final StepContext kernel;
    private volatile Serializable persistentUserData;
    private volatile StepCounters committed = StepCounters.ZERO;

    ChunkStepContext(String stepName, StepContext kernel, Map<String, String> properties, JakartaJobContext job) {
        super(stepName, kernel.stepExecutionId().value(), properties, job);
        this.kernel = kernel;
    }

    @Override
    public Serializable getPersistentUserData() {
        return persistentUserData;
    }

    /** Kept in memory and committed with the next chunk's checkpoint. */
    @Override
    public void setPersistentUserData(Serializable data) {
        this.persistentUserData = data;
    }

    /** The data the checkpoint being resumed holds. */
    void resumed(Serializable data) {
        this.persistentUserData = data;
    }

    /**
     * @throws IllegalArgumentException for a text the repository cannot keep (blank, longer than 100
     *         characters, or with control characters)
     */
    @Override
    public void setExitStatus(String status) {
        if (status != null) {
            ExitStatus exitStatus;
            try {
                exitStatus = ExitStatus.of(status);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("StepContext.setExitStatus of step " + getStepName() + ": "
                        + e.getMessage(), e);
            }
            kernel.setExitStatus(exitStatus);
        }
        super.setExitStatus(status);
    }

    void committed(StepCounters counters) {
        this.committed = counters;
    }

    /** The counters of the chunks this attempt committed; a chunk's own reads count once it commits. */
    @Override
    public Metric[] getMetrics() {
        return StepMetrics.of(committed);
    }
}
