package io.durablebatch.jakarta.runtime.execution;

import java.io.Serializable;
import java.util.Map;

import jakarta.batch.runtime.Metric;

import io.durablebatch.context.StepContext;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.StepCounters;

/**
 * The {@code StepContext} of a chunk step's attempt. Its persistent user data is committed with
 * each chunk's checkpoint ({@link ChunkCheckpoint}) and given back to a restart's attempt before
 * its reader opens; its metrics are the counters of the chunks committed so far; the exit status an
 * artifact sets is handed to the kernel at once, so the chunk that completes the step records it.
 */
final class ChunkStepContext extends JakartaStepContext {

    private final StepContext kernel;
    private volatile StepCounters committed = StepCounters.ZERO;

    /**
     * {@code stepExecutionId}: the one Jakarta sees (a partition's is its partitioned step's);
     * {@code resumedUserData}: the data of the checkpoint this attempt resumes, there from its first callback on.
     */
    ChunkStepContext(String stepName, long stepExecutionId, StepContext kernel, Map<String, String> properties,
            JakartaJobContext job, Serializable resumedUserData) {
        super(stepName, stepExecutionId, properties, job, resumedUserData);
        this.kernel = kernel;
    }

    /** The data of the checkpoint the reader (re)opens at, which the chunks from there on start from. */
    void resumed(Serializable data) {
        setPersistentUserData(data);
    }

    /**
     * @throws IllegalArgumentException for a text the repository cannot keep (blank, longer than
     *         {@link ExitStatus#MAX_CODE_LENGTH} characters, or with control characters)
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
