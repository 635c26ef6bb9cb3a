package io.durablebatch.context;

import java.nio.charset.StandardCharsets;

import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.repository.partition.PartitionPlanEntry;

/**
 * The partition a worker step attempt runs: its plan entry, its one-based position in the plan and
 * the partitioned step's attempt (the parent) whose plan it belongs to.
 */
public record PartitionContext(PartitionPlanEntry entry, int ordinal, StepExecutionId parent) {

    /** The key, decoded as UTF-8. */
    public String key() {
        return new String(entry.key(), StandardCharsets.UTF_8);
    }

    /** The input, decoded as UTF-8. */
    public String input() {
        return new String(entry.input(), StandardCharsets.UTF_8);
    }
}
