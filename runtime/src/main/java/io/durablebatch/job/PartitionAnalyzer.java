package io.durablebatch.job;

import io.durablebatch.context.PartitionContext;
import io.durablebatch.context.StepContext;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExitStatus;

/**
 * Follows the partitions of a partitioned step on the step's own thread (the parent): the data their
 * workers send with {@link StepContext#collect}, in the order it arrives, how each partition ended, and
 * the end of them all. Its calls are never concurrent; it may set the step's exit status through
 * {@code parent}, which then replaces the most severe partition's. A throw fails the step.
 * <p>
 * The data travels in memory: a step with an analyzer runs its partitions on its own process's
 * workers only (remote workers leave its plan alone). A restart calls it for the partitions it runs
 * again, not for those that had completed.
 */
public interface PartitionAnalyzer {

    /** Data a worker sent while it ran {@code partition}. */
    default void collected(StepContext parent, PartitionContext partition, Object data) throws Exception {
    }

    /** The worker of {@code partition} ended so, after all the data it sent. */
    default void ended(StepContext parent, PartitionContext partition, ExecutionStatus status, ExitStatus exitStatus)
            throws Exception {
    }

    /**
     * Every partition of the plan has ended: {@code status} is the step's aggregate (FAILED over
     * STOPPED over COMPLETED), about to be recorded. After a stop that leaves partitions unstarted
     * (to a restart), it is called once those that started have ended, with STOPPED.
     */
    default void allEnded(StepContext parent, ExecutionStatus status) throws Exception {
    }
}
