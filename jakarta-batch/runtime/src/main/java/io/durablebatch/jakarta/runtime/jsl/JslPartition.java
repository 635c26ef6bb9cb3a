package io.durablebatch.jakarta.runtime.jsl;

import java.util.Objects;
import java.util.Optional;

/**
 * {@code <partition>} of a step: the partitions come from a mapper artifact or a static plan; a
 * collector in each partition sends data to the analyzer on the step's thread; a reducer brackets
 * the whole.
 */
public record JslPartition(Optional<JslArtifact> mapper, Optional<JslPartitionPlan> plan,
        Optional<JslArtifact> collector, Optional<JslArtifact> analyzer, Optional<JslArtifact> reducer,
        JslLocation location) {

    public JslPartition {
        Objects.requireNonNull(mapper, "mapper");
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(collector, "collector");
        Objects.requireNonNull(analyzer, "analyzer");
        Objects.requireNonNull(reducer, "reducer");
        Objects.requireNonNull(location, "location");
        if (mapper.isPresent() && plan.isPresent()) {
            throw new IllegalArgumentException("a partition has a mapper or a plan, not both");
        }
    }
}
