package io.durablebatch.jakarta.runtime.jsl;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code <step>}: a batchlet or a chunk, optionally partitioned. {@code start-limit} and
 * {@code allow-start-if-complete} stay as written (they may be substitutions).
 */
public record JslStep(String id, Optional<String> next, Optional<String> startLimit,
        Optional<String> allowStartIfComplete, JslProperties properties, List<JslArtifact> listeners,
        Optional<JslStepWork> work, Optional<JslPartition> partition, List<JslTransition> transitions,
        JslLocation location) implements JslExecutionElement {

    public JslStep {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(next, "next");
        Objects.requireNonNull(startLimit, "startLimit");
        Objects.requireNonNull(allowStartIfComplete, "allowStartIfComplete");
        Objects.requireNonNull(properties, "properties");
        listeners = List.copyOf(listeners);
        Objects.requireNonNull(work, "work");
        Objects.requireNonNull(partition, "partition");
        transitions = List.copyOf(transitions);
        Objects.requireNonNull(location, "location");
    }
}
