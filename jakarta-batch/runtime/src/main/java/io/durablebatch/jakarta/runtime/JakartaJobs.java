package io.durablebatch.jakarta.runtime;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import io.durablebatch.jakarta.runtime.artifact.BatchArtifacts;
import io.durablebatch.jakarta.runtime.jsl.JslJob;
import io.durablebatch.jakarta.runtime.jsl.JslParser;
import io.durablebatch.jakarta.runtime.plan.JslPlans;
import io.durablebatch.job.JobDefinition;

/**
 * The application's job XMLs at runtime, by the name {@code JobOperator.start} takes: those that run
 * (each is also a kernel job definition) and those whose start is refused, with why. A synthetic
 * bean, built from what the build recorded.
 */
public final class JakartaJobs {

    private final Map<String, JslJob> runnable = new LinkedHashMap<>();
    private final Map<String, String> refused;
    /** Asked on every operator call (each poll of {@code getJobExecution}): built once. */
    private final Set<String> names;
    private final BatchArtifacts artifacts;

    /**
     * @param files the resource path of each job that runs, by name
     * @param sources the text of each job that runs, by name
     * @param refused why each other job XML cannot run, by name
     * @param batchXmlRefs the ref ids of {@code META-INF/batch.xml} and their classes
     */
    public JakartaJobs(Map<String, String> files, Map<String, String> sources, Map<String, String> refused,
            Map<String, String> batchXmlRefs) {
        sources.forEach((name, source) -> runnable.put(name,
                JslParser.parse(files.get(name), new ByteArrayInputStream(source.getBytes(StandardCharsets.UTF_8)))));
        this.refused = Map.copyOf(refused);
        Set<String> names = new TreeSet<>(runnable.keySet());
        names.addAll(refused.keySet());
        this.names = Collections.unmodifiableSet(names);
        this.artifacts = new BatchArtifacts(batchXmlRefs);
    }

    public Optional<JslJob> job(String name) {
        return Optional.ofNullable(runnable.get(name));
    }

    /** Why starting the job XML of this name is refused, if it is. */
    public Optional<String> refusal(String name) {
        return name == null ? Optional.empty() : Optional.ofNullable(refused.get(name));
    }

    /** Every job XML's name, those that run and those that are refused. */
    public Set<String> names() {
        return names;
    }

    public BatchArtifacts artifacts() {
        return artifacts;
    }

    /** The kernel definition of a job that runs (it was checked when the application was built). */
    public JobDefinition definition(String name) {
        return JslPlans.plan(job(name).orElseThrow());
    }
}
