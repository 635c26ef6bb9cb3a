package io.durablebatch.jakarta.runtime.jsl;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@code <properties>} element in document order (a later property may refer to an earlier one
 * through {@code #{jobProperties['...']}}). {@code partition} is set only inside a partition plan.
 */
public record JslProperties(Optional<String> partition, List<JslProperty> entries) {

    public static final JslProperties NONE = new JslProperties(Optional.empty(), List.of());

    public JslProperties {
        Objects.requireNonNull(partition, "partition");
        entries = List.copyOf(entries);
    }

    public boolean isEmpty() {
        return entries.isEmpty();
    }
}
