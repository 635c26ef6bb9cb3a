package io.durablebatch.jakarta.runtime.execution;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

import jakarta.batch.api.partition.PartitionMapper;
import jakarta.batch.api.partition.PartitionPlan;
import jakarta.inject.Singleton;

import io.durablebatch.context.PartitionContext;
import io.durablebatch.context.StepContext;
import io.durablebatch.jakarta.runtime.JakartaJobs;
import io.durablebatch.jakarta.runtime.artifact.BatchArtifacts;
import io.durablebatch.jakarta.runtime.artifact.CurrentArtifact;
import io.durablebatch.jakarta.runtime.jsl.JslArtifact;
import io.durablebatch.jakarta.runtime.jsl.JslJob;
import io.durablebatch.jakarta.runtime.jsl.JslPartition;
import io.durablebatch.jakarta.runtime.jsl.JslPartitionPlan;
import io.durablebatch.jakarta.runtime.jsl.JslProperties;
import io.durablebatch.jakarta.runtime.jsl.JslStep;
import io.durablebatch.jakarta.runtime.jsl.PropertyScope;
import io.durablebatch.jakarta.runtime.partition.PartitionProperties;
import io.durablebatch.job.Partitioning;
import io.durablebatch.repository.partition.PartitionPlanEntry;

/**
 * Makes the plan of one attempt of a partitioned JSL step, on the step's thread: from
 * {@code <plan partitions threads>} and its {@code <properties partition="n">}, or from the
 * {@code PartitionPlan} its {@code <mapper>} returns. Partition n (zero-based) is the plan entry keyed
 * by n in fixed-width digits, so the kernel's key order is the partitions' order; its input holds its
 * properties. A restart resumes the stored plan (only partitions that did not complete run again),
 * unless the mapper's plan says {@code partitionsOverride}: then every partition of the new plan runs.
 */
@Singleton
public class PartitionPlans {

    /** More partitions than a plan may hold keys for in fixed-width digits. */
    static final int MAX_PARTITIONS = 999_999;

    private final JakartaJobs jobs;
    private final PartitionAnalyses analyses;
    private final ExecutionContexts contexts;

    PartitionPlans(JakartaJobs jobs, PartitionAnalyses analyses, ExecutionContexts contexts) {
        this.jobs = jobs;
        this.analyses = analyses;
        this.contexts = contexts;
    }

    Partitioning partitioning(JslJob job, JslStep step, StepContext kernel, boolean resumable) throws Exception {
        JslPartition partition = step.partition().orElseThrow();
        PartitionedStepRun run = analyses.run(job, step, kernel); // begins the reducer
        PropertyScope stepScope = run.stepScope;
        String where = "the <partition> of step " + step.id();
        if (partition.plan().isPresent()) {
            JslPartitionPlan plan = partition.plan().get();
            int partitions = count(plan.partitions().map(stepScope::resolve), "partitions", where, 1);
            int threads = count(plan.threads().map(stepScope::resolve), "threads", where, partitions);
            if (resumable) {
                return Partitioning.resume().withWorkers(threads);
            }
            return Partitioning.of(entries(partitions, planProperties(plan, partitions, stepScope, where), where))
                    .withWorkers(threads);
        }
        JslArtifact mapper = partition.mapper().orElseThrow();
        CurrentArtifact current = new CurrentArtifact(mapper.location().toString(), run.jobContext, run.stepContext,
                stepScope.enter(mapper.properties()).properties());
        PartitionPlan mapped;
        try (BatchArtifacts.Resolved<PartitionMapper> resolved = jobs.artifacts().resolve(stepScope.resolve(mapper.ref()),
                PartitionMapper.class, current)) {
            mapped = current.call(resolved.get()::mapPartitions);
        }
        if (mapped == null) {
            throw new IllegalStateException("the mapper of step " + step.id() + " returned no PartitionPlan");
        }
        where = "the PartitionPlan of the mapper of step " + step.id();
        int partitions = bounded(mapped.getPartitions(), "partitions", where);
        int threads = mapped.getThreads() == 0 ? partitions : bounded(mapped.getThreads(), "threads", where);
        Properties[] properties = mapped.getPartitionProperties();
        run.mapped = byNumber(properties);
        if (resumable && !mapped.getPartitionsOverride()) {
            return Partitioning.resume().withWorkers(threads);
        }
        if (resumable) {
            analyses.overriding(run);
        }
        if (properties != null && properties.length > partitions) {
            throw new IllegalStateException(where + " has properties for " + properties.length + " partitions, but only "
                    + partitions + " partitions");
        }
        Map<Integer, Properties> byPartition = new HashMap<>();
        for (int i = 0; properties != null && i < properties.length; i++) {
            byPartition.put(i, properties[i]);
        }
        return Partitioning.of(entries(partitions, byPartition, where)).withWorkers(threads);
    }

    /**
     * What {@code #{partitionPlan['x']}} reads in a partition, on its worker's thread: a static plan's
     * {@code <properties partition="n">} resolved for this execution; the properties this attempt's
     * mapper gave partition n (a restart that resumes the stored plan runs with the mapper's new ones);
     * else, for a worker of another process, the ones the plan was stored with.
     */
    Map<String, String> propertiesOf(JslStep step, PartitionContext partition, PropertyScope jobScope) {
        int n = number(partition.key());
        JslPartition jsl = step.partition().orElseThrow();
        if (jsl.plan().isPresent()) {
            PropertyScope stepScope = jobScope.enter(step.properties());
            String where = "the <partition> of step " + step.id();
            Properties properties = planProperties(jsl.plan().get(), Integer.MAX_VALUE, stepScope, where).get(n);
            return properties == null ? Map.of() : strings(properties);
        }
        Optional<Map<String, String>> mapped = contexts.partitionedStep(partition.parent().value())
                .map(run -> run.mapped.get(n));
        return mapped.orElseGet(() -> PartitionProperties.decode(partition.entry().input()));
    }

    private static Map<Integer, Map<String, String>> byNumber(Properties[] properties) {
        Map<Integer, Map<String, String>> byNumber = new HashMap<>();
        for (int i = 0; properties != null && i < properties.length; i++) {
            byNumber.put(i, properties[i] == null ? Map.of() : strings(properties[i]));
        }
        return Map.copyOf(byNumber);
    }

    private static Map<String, String> strings(Properties properties) {
        Map<String, String> strings = new HashMap<>();
        properties.stringPropertyNames().forEach(name -> strings.put(name, properties.getProperty(name)));
        return strings;
    }

    /** The resolved {@code <properties partition="n">} of a static plan, by partition. */
    private static Map<Integer, Properties> planProperties(JslPartitionPlan plan, int partitions, PropertyScope scope,
            String where) {
        Map<Integer, Properties> byPartition = new HashMap<>();
        for (JslProperties written : plan.partitionProperties()) {
            Optional<String> number = written.partition().map(scope::resolve);
            int n;
            try {
                n = Integer.parseInt(number.orElse("").trim());
            } catch (NumberFormatException e) {
                throw new IllegalStateException(where + ": <properties partition=\"" + number.orElse("")
                        + "\"> names no partition number");
            }
            if (n < 0 || n >= partitions) {
                throw new IllegalStateException(where + ": <properties partition=\"" + n + "\"> names no partition of "
                        + "the " + partitions + " of the plan (they are numbered from 0)");
            }
            Properties resolved = new Properties();
            resolved.putAll(scope.enter(written).properties());
            byPartition.put(n, resolved);
        }
        return byPartition;
    }

    private static List<PartitionPlanEntry> entries(int partitions, Map<Integer, Properties> properties, String where) {
        List<PartitionPlanEntry> entries = new ArrayList<>(partitions);
        for (int i = 0; i < partitions; i++) {
            entries.add(PartitionPlanEntry.of(key(i),
                    PartitionProperties.encode(properties.get(i), "partition " + i + " of " + where)));
        }
        return entries;
    }

    /** The key of partition {@code n}: fixed-width digits, so that key order is partition order. */
    static String key(int n) {
        return String.format("%06d", n);
    }

    /** The zero-based JSL partition number of a plan entry's key. */
    static int number(String key) {
        return Integer.parseInt(key);
    }

    private static int count(Optional<String> written, String attribute, String where, int absent) {
        if (written.isEmpty() || written.get().isBlank()) {
            return absent;
        }
        try {
            return bounded(Integer.parseInt(written.get().trim()), attribute, where);
        } catch (NumberFormatException e) {
            throw new IllegalStateException(where + ": " + attribute + "=\"" + written.get() + "\" is no number");
        }
    }

    private static int bounded(int value, String attribute, String where) {
        if (value < 1 || value > MAX_PARTITIONS) {
            throw new IllegalStateException(where + ": " + attribute + " must be 1 to " + MAX_PARTITIONS + ", not " + value);
        }
        return value;
    }
}
