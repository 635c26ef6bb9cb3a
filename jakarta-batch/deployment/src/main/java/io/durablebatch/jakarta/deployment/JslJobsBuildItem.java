package io.durablebatch.jakarta.deployment;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.durablebatch.jakarta.runtime.jsl.JslJob;
import io.durablebatch.jakarta.runtime.jsl.JslProblem;
import io.quarkus.builder.item.SimpleBuildItem;

/**
 * The application's job XMLs by the name {@code JobOperator.start} takes: those that can run, and,
 * when {@code quarkus.durable-batch.jakarta.invalid-job-xml=refuse-start}, those whose start is to be
 * refused, with why.
 */
public final class JslJobsBuildItem extends SimpleBuildItem {

    private final Map<String, JslJob> jobs;
    private final Map<String, String> sources;
    private final Map<String, List<JslProblem>> refused;

    JslJobsBuildItem(Map<String, JslJob> jobs, Map<String, String> sources, Map<String, List<JslProblem>> refused) {
        this.jobs = Map.copyOf(jobs);
        this.sources = Map.copyOf(sources);
        this.refused = Map.copyOf(refused);
    }

    /**
     * The text of each job that can run, by name: what is recorded for the runtime, which parses it
     * again (the model is not recordable, and parsing a job XML costs less than a millisecond).
     */
    public Map<String, String> sources() {
        return new TreeMap<>(sources);
    }

    /** The jobs that can run, sorted by name. */
    public Map<String, JslJob> jobs() {
        return new TreeMap<>(jobs);
    }

    /** The job XMLs that cannot run, sorted by name, each with its problems. */
    public Map<String, List<JslProblem>> refused() {
        return new TreeMap<>(refused);
    }
}
