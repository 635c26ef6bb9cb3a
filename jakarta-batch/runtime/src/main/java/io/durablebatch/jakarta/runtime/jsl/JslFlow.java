package io.durablebatch.jakarta.runtime.jsl;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** {@code <flow>}: a sequence of execution elements run as one; its elements transition only among themselves. */
public record JslFlow(String id, Optional<String> next, List<JslExecutionElement> elements,
        List<JslTransition> transitions, JslLocation location) implements JslExecutionElement {

    public JslFlow {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(next, "next");
        elements = List.copyOf(elements);
        transitions = List.copyOf(transitions);
        Objects.requireNonNull(location, "location");
    }
}
