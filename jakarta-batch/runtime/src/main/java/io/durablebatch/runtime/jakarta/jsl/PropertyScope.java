package io.durablebatch.runtime.jakarta.jsl;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
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

    private final Map<String, String> jobParameters;
    private final UnaryOperator<String> systemProperties;
    private final Map<String, String> partitionPlan;
    private final PropertyScope enclosing;
    private final Map<String, String> properties;

    private PropertyScope(Map<String, String> jobParameters, UnaryOperator<String> systemProperties,
            Map<String, String> partitionPlan, PropertyScope enclosing, Map<String, String> properties) {
        this.jobParameters = jobParameters;
        this.systemProperties = systemProperties;
        this.partitionPlan = partitionPlan;
        this.enclosing = enclosing;
        this.properties = properties;
    }

    /** The outermost scope of an execution: its parameters and the JVM's system properties. */
    public static PropertyScope ofExecution(Map<String, String> jobParameters) {
        return of(jobParameters, System::getProperty);
    }

    public static PropertyScope of(Map<String, String> jobParameters, UnaryOperator<String> systemProperties) {
        return new PropertyScope(Map.copyOf(jobParameters), Objects.requireNonNull(systemProperties), Map.of(), null,
                Map.of());
    }

    /** This scope inside one partition, whose plan properties {@code #{partitionPlan[...]}} reads. */
    public PropertyScope inPartition(Map<String, String> plan) {
        return new PropertyScope(jobParameters, systemProperties, Map.copyOf(plan), enclosing, properties);
    }

    /** The scope of an element with these properties, resolved here in document order. */
    public PropertyScope enter(JslProperties element) {
        Map<String, String> resolved = new LinkedHashMap<>();
        PropertyScope inner = new PropertyScope(jobParameters, systemProperties, partitionPlan, this, resolved);
        for (JslProperty property : element.entries()) {
            resolved.put(property.name(), inner.resolve(property.value()));
        }
        return new PropertyScope(jobParameters, systemProperties, partitionPlan, this,
                Collections.unmodifiableMap(resolved));
    }

    /** The resolved properties of the innermost element (what its artifact gets as {@code @BatchProperty}). */
    public Map<String, String> properties() {
        return properties;
    }

    public String resolve(String value) {
        return Substitution.parse(value).resolve(this::find);
    }

    private String find(Substitution.Operator operator, String name) {
        return switch (operator) {
            case JOB_PARAMETERS -> jobParameters.get(name);
            case SYSTEM_PROPERTIES -> systemProperties.apply(name);
            case PARTITION_PLAN -> partitionPlan.get(name);
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
