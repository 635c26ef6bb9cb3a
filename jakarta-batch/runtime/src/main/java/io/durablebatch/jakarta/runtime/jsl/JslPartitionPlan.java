package io.durablebatch.jakarta.runtime.jsl;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code <plan partitions threads>}: a static partition plan; each {@code <properties partition="n">}
 * holds what {@code #{partitionPlan['...']}} resolves to in partition n.
 */
public record JslPartitionPlan(Optional<String> partitions, Optional<String> threads,
        List<JslProperties> partitionProperties, JslLocation location) {

    public JslPartitionPlan {
        Objects.requireNonNull(partitions, "partitions");
        Objects.requireNonNull(threads, "threads");
        partitionProperties = List.copyOf(partitionProperties);
        Objects.requireNonNull(location, "location");
    }
}
