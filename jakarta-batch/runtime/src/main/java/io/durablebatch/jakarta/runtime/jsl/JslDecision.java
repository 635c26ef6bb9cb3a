package io.durablebatch.jakarta.runtime.jsl;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** {@code <decision ref>}: a decider chooses the exit status its transition elements route on. */
public record JslDecision(String id, JslArtifact decider, List<JslTransition> transitions, JslLocation location)
        implements
            JslExecutionElement {

    public JslDecision {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(decider, "decider");
        transitions = List.copyOf(transitions);
        Objects.requireNonNull(location, "location");
    }

    /** A decision routes by its transition elements only. */
    @Override
    public Optional<String> next() {
        return Optional.empty();
    }
}
