package io.durablebatch.job;

import java.util.List;

import io.durablebatch.context.StepContext;
import io.durablebatch.repository.partition.PartitionPlanEntry;

/**
 * Splits the work of a partitioned step into partitions: each entry's key names it (unique within
 * the plan) and its input tells a worker what to read (a file name, a key range...). The plan is
 * stored whole before any worker starts. By default a restart reuses the stored plan and does not
 * call {@link #partition} again; {@link #partitioning} can decide otherwise.
 */
@FunctionalInterface
public interface Partitioner {

    List<PartitionPlanEntry> partition(StepContext context) throws Exception;

    /**
     * Decides the plan of one attempt. {@code resumable} says whether the attempt restarts one that
     * stored a plan; the default resumes it then, and otherwise calls {@link #partition}. Override it
     * to partition afresh on a restart (its stored partitions are then ignored, completed or not) or
     * to choose the attempt's worker threads. A decision to resume where nothing is resumable is
     * refused: the step fails.
     */
    default Partitioning partitioning(StepContext context, boolean resumable) throws Exception {
        return resumable ? Partitioning.resume() : Partitioning.of(partition(context));
    }
}
