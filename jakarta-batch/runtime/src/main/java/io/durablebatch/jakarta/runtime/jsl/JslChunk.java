package io.durablebatch.jakarta.runtime.jsl;

import java.util.Objects;
import java.util.Optional;

/**
 * {@code <chunk>}: reader, optional processor, writer, and when to commit. The attributes stay as
 * written; absent, the specification's defaults apply ({@code checkpoint-policy="item"},
 * {@code item-count="10"}, {@code time-limit="0"}, no skip or retry limit).
 */
public record JslChunk(JslArtifact reader, Optional<JslArtifact> processor, JslArtifact writer,
        Optional<JslArtifact> checkpointAlgorithm, JslExceptionFilter skippable, JslExceptionFilter retryable,
        JslExceptionFilter noRollback, Optional<String> checkpointPolicy, Optional<String> itemCount,
        Optional<String> timeLimit, Optional<String> skipLimit, Optional<String> retryLimit,
        JslLocation location) implements JslStepWork {

    public JslChunk {
        Objects.requireNonNull(reader, "reader");
        Objects.requireNonNull(processor, "processor");
        Objects.requireNonNull(writer, "writer");
        Objects.requireNonNull(checkpointAlgorithm, "checkpointAlgorithm");
        Objects.requireNonNull(skippable, "skippable");
        Objects.requireNonNull(retryable, "retryable");
        Objects.requireNonNull(noRollback, "noRollback");
        Objects.requireNonNull(checkpointPolicy, "checkpointPolicy");
        Objects.requireNonNull(itemCount, "itemCount");
        Objects.requireNonNull(timeLimit, "timeLimit");
        Objects.requireNonNull(skipLimit, "skipLimit");
        Objects.requireNonNull(retryLimit, "retryLimit");
        Objects.requireNonNull(location, "location");
    }

    /** The item count a resolved {@code item-count} says, if it is a number of 1 or more. */
    public static Optional<Integer> itemCountOf(String resolved) {
        try {
            int count = Integer.parseInt(resolved.trim());
            return count > 0 ? Optional.of(count) : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
