package io.durablebatch.job;

import java.util.List;

import io.durablebatch.partition.PartitionPlanEntry;

/**
 * Splits the work of a partitioned step into partitions: each entry's key names it (unique within
 * the plan) and its input tells a worker what to read (a file name, a key range...). The plan is
 * stored whole before any worker starts; a restart reuses it and does not call the partitioner again.
 */
@FunctionalInterface
public interface Partitioner {

    List<PartitionPlanEntry> partition(StepContext context) throws Exception;
}
