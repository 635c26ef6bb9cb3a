package io.durablebatch.job;

import io.durablebatch.Checks;

/** Factories of the node kinds; statically import them to declare jobs. */
public final class Steps {

    private Steps() {
    }

    /** A tasklet step whose node id is its name. */
    public static TaskletStep tasklet(String name, Tasklet tasklet) {
        return new TaskletStep(StepSettings.of(name), tasklet);
    }

    /** A partitioned step: {@code partitioner} plans the partitions, each run by {@code worker}. */
    public static PartitionedStep partitioned(String name, Partitioner partitioner, Step worker) {
        return new PartitionedStep(StepSettings.of(name), partitioner, worker, java.util.OptionalInt.empty());
    }

    /** A decision node: {@code decider} picks the exit code its transitions match. */
    public static Decision decision(String id, Decider decider) {
        return new Decision(id, decider);
    }

    /** A split node: its {@code flows} run in parallel, and it ends when all of them have. */
    public static Split split(String id, SplitFlow... flows) {
        return new Split(id, java.util.List.of(flows));
    }

    /** Starts a flow of a split at {@code node}. */
    public static SplitFlow.Builder flow(Node node) {
        return SplitFlow.startingWith(node);
    }

    /** Starts a chunk step that commits every {@code commitInterval} items. */
    public static ChunkStep.ReaderStage chunk(String name, int commitInterval) {
        Checks.positive(commitInterval, "commitInterval of step '" + name + "'");
        return new ChunkStep.ReaderStage(StepSettings.of(name), commitInterval);
    }
}
