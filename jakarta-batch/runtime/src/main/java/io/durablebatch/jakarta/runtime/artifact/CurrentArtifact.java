package io.durablebatch.jakarta.runtime.artifact;

import java.util.Map;
import java.util.Optional;

import jakarta.batch.runtime.context.JobContext;
import jakarta.batch.runtime.context.StepContext;

/**
 * The artifact being created or run on this thread: its contexts and its resolved
 * {@code <properties>}, which {@code @Inject JobContext}, {@code @Inject StepContext} and
 * {@code @Inject @BatchProperty} read. Bound around the artifact's creation (so {@code @Dependent}
 * artifacts get them injected) and around each call into it.
 */
public record CurrentArtifact(String where, JobContext jobContext, StepContext stepContext, Map<String, String> properties) {

    private static final ThreadLocal<CurrentArtifact> CURRENT = new ThreadLocal<>();

    public CurrentArtifact {
        properties = Map.copyOf(properties);
    }

    /**
     * Runs {@code work} with this artifact current on this thread. The outer one is set back, null
     * included, never removed: a chunk calls this twice an item, and a removed thread-local is set
     * again as a new entry (an allocation and a sweep of the thread's map each time).
     */
    public <T> T call(Work<T> work) throws Exception {
        CurrentArtifact outer = CURRENT.get();
        CURRENT.set(this);
        try {
            return work.call();
        } finally {
            CURRENT.set(outer);
        }
    }

    /** The work done with an artifact current. */
    @FunctionalInterface
    public interface Work<T> {
        T call() throws Exception;
    }

    static Optional<CurrentArtifact> find() {
        return Optional.ofNullable(CURRENT.get());
    }

    static CurrentArtifact require(String what) {
        return find().orElseThrow(() -> new IllegalStateException(what + " can be injected only into a batch artifact "
                + "the job runs, while the batch runtime creates it (make the artifact @Dependent)"));
    }

    /**
     * The property of this name, or null when the element declares none (as the specification wants)
     * or its value resolved to the empty string: a {@code #{jobParameters['x']}} of a parameter the
     * start did not pass injects null, as the TCK's artifacts expect (its chunk readers and writers
     * test their optional {@code readrecord.fail}-like properties for null).
     */
    String property(String name) {
        String value = properties.get(name);
        return value == null || value.isEmpty() ? null : value;
    }
}
