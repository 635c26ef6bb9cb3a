package io.durablebatch.jakarta.runtime.execution;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;

import io.durablebatch.execution.ExecutionParameters;
import io.durablebatch.execution.ParameterValue;
import io.durablebatch.operator.JobParameters;

/**
 * Jakarta job parameters on the kernel's. Jakarta parameters have no identity: every
 * {@code JobOperator.start} is a new job instance, whatever its {@link Properties}. So the one
 * identifying parameter is a generated run key, and the properties are kept as non-identifying
 * strings, which a restart replaces and {@code getParameters} gives back.
 */
public final class JakartaParameters {

    /** The identifying parameter that makes each start a new instance. */
    public static final String RUN_KEY = "jakarta.run";

    private JakartaParameters() {
    }

    /** The parameters of a new start: a fresh run key and the properties. */
    public static JobParameters forStart(Properties properties) {
        return new JobParameters(Map.of(RUN_KEY, ParameterValue.of(UUID.randomUUID().toString())),
                nonIdentifying(properties).values());
    }

    /**
     * The properties as non-identifying parameters.
     *
     * @throws IllegalArgumentException for a name the kernel cannot store (letters, digits and
     *         {@code _-.:/@}, at most 100 characters), or a value longer than 1000 characters
     */
    public static ExecutionParameters nonIdentifying(Properties properties) {
        Map<String, String> values = new LinkedHashMap<>();
        if (properties != null) {
            for (String name : properties.stringPropertyNames()) {
                if (name.equals(RUN_KEY)) {
                    throw new IllegalArgumentException("job parameter '" + RUN_KEY + "' is the run key of every start");
                }
                values.put(name, properties.getProperty(name));
            }
        }
        return ExecutionParameters.of(values);
    }

    /** The properties an execution was started or restarted with. */
    public static Properties properties(ExecutionParameters parameters) {
        Properties properties = new Properties();
        properties.putAll(strings(parameters.values()));
        return properties;
    }

    /** The properties as the substitutions of a running step see them ({@code #{jobParameters[..]}}). */
    public static Map<String, String> strings(JobParameters parameters) {
        return strings(parameters.nonIdentifying());
    }

    private static Map<String, String> strings(Map<String, ParameterValue> values) {
        Map<String, String> strings = new LinkedHashMap<>();
        values.forEach((name, value) -> strings.put(name, text(value)));
        return strings;
    }

    private static String text(ParameterValue value) {
        // Jakarta parameters are strings; other types only come from executions started natively
        return value instanceof ParameterValue.OfString string ? string.value() : String.valueOf(value);
    }
}
