package io.durablebatch.jakarta.runtime.jsl;

import java.util.Objects;

/**
 * A reference to a batch artifact (reader, batchlet, listener, mapper, decider...) with the properties
 * injected into it as {@code @BatchProperty}. The ref is a CDI {@code @Named} name or a class name,
 * and may itself be a substitution ({@code ref="#{jobParameters['batchlet']}"}).
 */
public record JslArtifact(String ref, JslProperties properties, JslLocation location) {

    public JslArtifact {
        Objects.requireNonNull(ref, "ref");
        Objects.requireNonNull(properties, "properties");
        Objects.requireNonNull(location, "location");
    }
}
