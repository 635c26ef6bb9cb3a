package io.durablebatch.operator;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import io.durablebatch.Checks;
import io.durablebatch.execution.ExecutionParameters;
import io.durablebatch.execution.JobInstanceKey;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.ParameterValue;

/**
 * The parameters of a launch. The identifying ones ({@link #values}) form, with the job name, the
 * {@link JobInstanceKey}: launching the same job with equal identifying parameters addresses the same
 * job instance (and restarts it if its latest attempt stopped or failed). The non-identifying ones
 * ({@link #nonIdentifying}) travel with the attempt only, as its {@link ExecutionParameters}: a
 * thread count, a source URL that moved; a restart keeps them or is given others. A step reads both
 * alike; a name is either identifying or not, never both.
 */
public record JobParameters(Map<String, ParameterValue> values, Map<String, ParameterValue> nonIdentifying) {

    private static final JobParameters NONE = new JobParameters(Map.of());

    public JobParameters {
        values = typedCopy(values, "parameters");
        nonIdentifying = typedCopy(nonIdentifying, "nonIdentifying");
        for (String name : nonIdentifying.keySet()) {
            if (values.containsKey(name)) {
                throw new IllegalArgumentException("parameter '" + name + "' is given twice, identifying and not");
            }
        }
    }

    /** Identifying parameters only. */
    public JobParameters(Map<String, ParameterValue> values) {
        this(values, Map.of());
    }

    private static Map<String, ParameterValue> typedCopy(Map<String, ParameterValue> values, String field) {
        Checks.notNull(values, field);
        Map<String, ParameterValue> copy = new LinkedHashMap<>();
        values.forEach((name, value) -> copy.put(Checks.notNull(name, "parameter name"), ParameterValue.of(value)));
        return Collections.unmodifiableMap(copy);
    }

    public static JobParameters none() {
        return NONE;
    }

    /** Typed identifying parameters from plain values: string, long, double, BigDecimal, boolean, LocalDate, Instant. */
    public static JobParameters of(Map<String, ?> values) {
        Checks.notNull(values, "parameters");
        Map<String, ParameterValue> typed = new LinkedHashMap<>();
        values.forEach((name, value) -> typed.put(name, ParameterValue.of(value)));
        return new JobParameters(typed);
    }

    public static JobParameters of(String name, Object value) {
        return of(Map.of(name, value));
    }

    /** The parameters of an attempt: its instance's identifying ones and its own non-identifying ones. */
    public static JobParameters of(JobInstanceKey key, ExecutionParameters execution) {
        Checks.notNull(key, "key");
        Checks.notNull(execution, "execution");
        return new JobParameters(key.parameters(), execution.values());
    }

    public static JobParameters of(JobInstanceKey key) {
        return new JobParameters(key.parameters());
    }

    /** These parameters plus one more identifying one. */
    public JobParameters with(String name, Object value) {
        Map<String, ParameterValue> more = new LinkedHashMap<>(values);
        if (more.put(Checks.notNull(name, "parameter name"), ParameterValue.of(value)) != null) {
            throw new IllegalArgumentException("parameter '" + name + "' is given twice");
        }
        return new JobParameters(more, nonIdentifying);
    }

    /** These parameters plus one more non-identifying one. */
    public JobParameters withNonIdentifying(String name, Object value) {
        Map<String, ParameterValue> more = new LinkedHashMap<>(nonIdentifying);
        if (more.put(Checks.notNull(name, "parameter name"), ParameterValue.of(value)) != null) {
            throw new IllegalArgumentException("parameter '" + name + "' is given twice");
        }
        return new JobParameters(values, more);
    }

    /** The non-identifying parameters, as the attempt stores them. */
    public ExecutionParameters executionParameters() {
        return new ExecutionParameters(nonIdentifying);
    }

    /** The parameter of this name, identifying or not. */
    public Optional<ParameterValue> get(String name) {
        return Optional.ofNullable(values.get(name)).or(() -> Optional.ofNullable(nonIdentifying.get(name)));
    }

    public String string(String name) {
        return typed(name, ParameterValue.OfString.class).value();
    }

    public long longValue(String name) {
        return typed(name, ParameterValue.OfLong.class).value();
    }

    public boolean booleanValue(String name) {
        return typed(name, ParameterValue.OfBoolean.class).value();
    }

    /** The instance key of {@code jobName} launched with these parameters. */
    public JobInstanceKey keyFor(JobName jobName) {
        return JobInstanceKey.of(jobName, values);
    }

    private <T extends ParameterValue> T typed(String name, Class<T> type) {
        ParameterValue value = get(name).orElseThrow(() -> new IllegalArgumentException("job parameter '" + name
                + "' is not set; the parameters are " + values.keySet()
                + (nonIdentifying.isEmpty() ? "" : " and, not identifying, " + nonIdentifying.keySet())));
        if (!type.isInstance(value)) {
            throw new IllegalArgumentException("job parameter '" + name + "' is a " + value.getClass().getSimpleName()
                    + ", not a " + type.getSimpleName());
        }
        return type.cast(value);
    }
}
