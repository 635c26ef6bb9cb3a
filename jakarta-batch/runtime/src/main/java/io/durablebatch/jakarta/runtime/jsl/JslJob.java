package io.durablebatch.jakarta.runtime.jsl;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A job XML as written. {@code name} is what {@code JobOperator.start} is given: the file name without
 * {@code .xml}, which need not equal the job's {@code id}.
 */
public record JslJob(String name, String id, Optional<String> restartable, JslProperties properties,
        List<JslArtifact> listeners, List<JslExecutionElement> elements, JslLocation location) {

    public JslJob {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(restartable, "restartable");
        Objects.requireNonNull(properties, "properties");
        listeners = List.copyOf(listeners);
        elements = List.copyOf(elements);
        Objects.requireNonNull(location, "location");
    }
}
