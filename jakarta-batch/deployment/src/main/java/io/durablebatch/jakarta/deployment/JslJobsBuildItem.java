package io.durablebatch.jakarta.deployment;

import java.util.Map;
import java.util.TreeMap;

import io.durablebatch.runtime.jakarta.jsl.JslJob;
import io.quarkus.builder.item.SimpleBuildItem;

/** Every job XML of the application, parsed and valid, by the name {@code JobOperator.start} takes. */
public final class JslJobsBuildItem extends SimpleBuildItem {

    private final Map<String, JslJob> jobs;

    JslJobsBuildItem(Map<String, JslJob> jobs) {
        this.jobs = Map.copyOf(jobs);
    }

    /** Sorted by name. */
    public Map<String, JslJob> jobs() {
        return new TreeMap<>(jobs);
    }
}
