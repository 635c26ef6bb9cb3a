package io.durablebatch.jakarta.runtime.jsl;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * What substitutions resolve to at one element of a job XML during one execution. A scope is entered
 * per element with {@code <properties>} (job, then flow, step, artifact), and
 * {@code #{jobProperties['x']}} finds {@code x} in the nearest enclosing one: step properties see job
 * properties and may override them. A property sees the ones written before it in its own element;
 * one that refers to its own name finds the enclosing value. {@code #{partitionPlan['x']}} is defined
 * only inside a partition.
 */
public final class PropertyScope {

    /**
     * What no job XML can hold (XML 1.0 excludes U+FFFF): the value of a reference only an execution
     * can resolve, in the scope of the job XML alone. It carries over into every value built from it.
     */
    private static final String DECIDED_PER_EXECUTION = "\uFFFF";

    /**
     * What no job XML can hold either (U+FFFE): the value of a partition plan's property in the scope
     * of the job XML alone, which only the properties inside a partition may read.
     */
    private static final String DECIDED_PER_PARTITION = "\uFFFE";

    private final UnaryOperator<String> jobParameters;
    private final UnaryOperator<String> systemProperties;
    private final UnaryOperator<String> partitionPlan;
    private final PropertyScope enclosing;
    /** The element this scope was entered for (none for the outermost), to enter it again in an execution. */
    private final JslProperties element;
    private final Map<String, String> properties;

    private PropertyScope(UnaryOperator<String> jobParameters, UnaryOperator<String> systemProperties,
            UnaryOperator<String> partitionPlan, PropertyScope enclosing, JslProperties element,
            Map<String, String> properties) {
        this.jobParameters = jobParameters;
        this.systemProperties = systemProperties;
        this.partitionPlan = partitionPlan;
        this.enclosing = enclosing;
        this.element = element;
        this.properties = properties;
    }

    /** The outermost scope of an execution: its parameters and the JVM's system properties. */
    public static PropertyScope ofExecution(Map<String, String> jobParameters) {
        return of(jobParameters, System::getProperty);
    }

    public static PropertyScope of(Map<String, String> jobParameters, UnaryOperator<String> systemProperties) {
        return new PropertyScope(Map.copyOf(jobParameters)::get, Objects.requireNonNull(systemProperties), name -> null,
                null, null, Map.of());
    }

    /**
     * The outermost scope of the job XML alone, before any execution: what {@link #resolveFixed}
     * resolves here is the same in every execution. Job parameters, system properties and partition
     * plans are not known yet, nor is any property that reads them, directly or through another.
     */
    public static PropertyScope ofJobXml() {
        UnaryOperator<String> perExecution = name -> DECIDED_PER_EXECUTION;
        return new PropertyScope(perExecution, perExecution, name -> DECIDED_PER_PARTITION, null, null, Map.of());
    }

    /**
     * This scope's elements entered again in the outermost scope of an execution with these job
     * parameters (and the JVM's system properties): what a value this scope cannot resolve
     * ({@link #resolveFixed}) resolves to in that execution.
     */
    public PropertyScope inExecution(Map<String, String> jobParameters) {
        return enclosing == null ? ofExecution(jobParameters) : enclosing.inExecution(jobParameters).enter(element);
    }

    /** This scope inside one partition, whose plan properties {@code #{partitionPlan[...]}} reads. */
    public PropertyScope inPartition(Map<String, String> plan) {
        return new PropertyScope(jobParameters, systemProperties, Map.copyOf(plan)::get, enclosing, element, properties);
    }

    /** The scope of an element with these properties, resolved here in document order. */
    public PropertyScope enter(JslProperties element) {
        Map<String, String> resolved = new LinkedHashMap<>();
        PropertyScope inner = new PropertyScope(jobParameters, systemProperties, partitionPlan, this, element, resolved);
        for (JslProperty property : element.entries()) {
            resolved.put(property.name(), inner.resolve(property.value()));
        }
        return new PropertyScope(jobParameters, systemProperties, partitionPlan, this, element,
                Collections.unmodifiableMap(resolved));
    }

    /** The resolved properties of the innermost element (what its artifact gets as {@code @BatchProperty}). */
    public Map<String, String> properties() {
        return properties;
    }

    public String resolve(String value) {
        return Substitution.parse(value).resolve(this::find);
    }

    /**
     * What {@code value} resolves to in every execution, in a scope of {@link #ofJobXml}; empty when
     * it reads something only an execution knows (an undefined job property is known: it is undefined
     * in every execution, so its default applies).
     */
    public Optional<String> resolveFixed(String value) {
        String resolved = resolve(value);
        return resolved.contains(DECIDED_PER_EXECUTION) || resolved.contains(DECIDED_PER_PARTITION) ? Optional.empty()
                : Optional.of(resolved);
    }

    /**
     * Whether {@code value} reads a partition plan's property, directly or through a property, in a
     * scope of {@link #ofJobXml}: what an element outside a partition cannot resolve in any execution.
     */
    public boolean readsPartitionPlan(String value) {
        return resolve(value).contains(DECIDED_PER_PARTITION);
    }

    private String find(Substitution.Operator operator, String name) {
        return switch (operator) {
            case JOB_PARAMETERS -> jobParameters.apply(name);
            case SYSTEM_PROPERTIES -> systemProperties.apply(name);
            case PARTITION_PLAN -> partitionPlan.apply(name);
            case JOB_PROPERTIES -> jobProperty(name);
        };
    }

    private String jobProperty(String name) {
        for (PropertyScope scope = this; scope != null; scope = scope.enclosing) {
            String value = scope.properties.get(name);
            if (value != null) {
                return value;
            }
        }
        return null;
    }
}
