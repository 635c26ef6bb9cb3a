package io.durablebatch.jakarta.runtime.jsl;

import java.util.Objects;

/** {@code <batchlet ref>}: one call to a batch artifact does the step's work. */
public record JslBatchlet(JslArtifact artifact) implements JslStepWork {

    public JslBatchlet {
        Objects.requireNonNull(artifact, "artifact");
    }
}
