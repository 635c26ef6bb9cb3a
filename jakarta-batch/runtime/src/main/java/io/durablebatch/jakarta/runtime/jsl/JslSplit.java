package io.durablebatch.jakarta.runtime.jsl;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** {@code <split>}: flows run in parallel; the split ends when all of them have. */
public record JslSplit(String id, Optional<String> next, List<JslFlow> flows, JslLocation location)
        implements
            JslExecutionElement {

    public JslSplit {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(next, "next");
        flows = List.copyOf(flows);
        Objects.requireNonNull(location, "location");
    }

    /** A split has no transition elements; it goes on to {@link #next()} or ends the job. */
    @Override
    public List<JslTransition> transitions() {
        return List.of();
    }
}
