package io.durablebatch.job;

import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.execution.StepName;

/** What a running step attempt knows about itself; given to tasklets and reader factories. */
public interface StepContext {

    JobName jobName();

    JobParameters parameters();

    JobInstanceId jobInstanceId();

    JobExecutionId jobExecutionId();

    StepExecutionId stepExecutionId();

    StepName stepName();

    String nodeId();

    /** Whether this attempt resumes the checkpoint of an earlier attempt of the same node. */
    boolean isRestart();

    /** The partition this attempt runs, when it is a worker of a partitioned step. */
    java.util.Optional<PartitionContext> partition();

    /** The context of the job execution this attempt belongs to, where the job's exit status is set. */
    JobContext job();

    /**
     * Sets the exit status the step ends with if it completes, e.g. to let a flow branch on
     * {@code EMPTY_INPUT}. Without it a completed step exits {@code COMPLETED}.
     */
    void setExitStatus(ExitStatus exitStatus);

    /**
     * Sends {@code data} to the {@link PartitionAnalyzer} of the partitioned step this attempt is a
     * worker of, on the step's thread, after the data sent before.
     *
     * @throws IllegalStateException unless this attempt is a worker of a step with an analyzer
     */
    default void collect(Object data) {
        throw new IllegalStateException("step '" + stepName().value() + "' is no worker of a partitioned step with an "
                + "analyzer: it has nowhere to send collected data");
    }
}
