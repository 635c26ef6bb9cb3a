package io.durablebatch.context;

import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.execution.StepName;
import io.durablebatch.job.PartitionAnalyzer;
import io.durablebatch.operator.JobParameters;

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
     * A tasklet's own checkpoint: the one it saved last in this attempt ({@link #saveCheckpoint}),
     * else the one the node's previous attempt recorded, which a restart of a stopped or failed
     * tasklet step resumes. Empty in a chunk step, whose checkpoint is its reader's and writer's.
     */
    java.util.Optional<io.durablebatch.execution.Checkpoint> checkpoint();

    /**
     * Saves a tasklet's checkpoint, the state it wants back on restart (how far it got, its own
     * data): recorded with the tasklet call's commit, and, if the call throws, with the step's
     * failure, so that a restart gets it back although the call's work rolled back. At most
     * {@link io.durablebatch.execution.Checkpoint#MAX_LENGTH} bytes.
     *
     * @throws IllegalStateException in a chunk step, whose checkpoint is its reader's and writer's
     */
    void saveCheckpoint(io.durablebatch.execution.Checkpoint checkpoint);

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
