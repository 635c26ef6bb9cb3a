package io.durablebatch.job;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import io.durablebatch.Checks;
import io.durablebatch.repository.JobInstanceKey;
import io.durablebatch.repository.JobName;
import io.durablebatch.repository.ParameterValue;

/**
 * The identifying parameters of a launch: with the job name they form the {@link JobInstanceKey},
 * so launching the same job with equal parameters addresses the same job instance (and restarts
 * it if its latest attempt stopped or failed).
 */
public record JobParameters(Map<String, ParameterValue> values) {

    private static final JobParameters NONE = new JobParameters(Map.of());

    public JobParameters {
        Checks.notNull(values, "parameters");
        Map<String, ParameterValue> copy = new LinkedHashMap<>();
        values.forEach((name, value) -> copy.put(Checks.notNull(name, "parameter name"), ParameterValue.of(value)));
        values = Collections.unmodifiableMap(copy);
    }

    public static JobParameters none() {
        return NONE;
    }

    /** Typed parameters from plain values: string, long, double, BigDecimal, boolean, LocalDate, Instant. */
    public static JobParameters of(Map<String, ?> values) {
        Checks.notNull(values, "parameters");
        Map<String, ParameterValue> typed = new LinkedHashMap<>();
        values.forEach((name, value) -> typed.put(name, ParameterValue.of(value)));
        return new JobParameters(typed);
    }

    public static JobParameters of(String name, Object value) {
        return of(Map.of(name, value));
    }

    public static JobParameters of(JobInstanceKey key) {
        return new JobParameters(key.parameters());
    }

    /** These parameters plus one more. */
    public JobParameters with(String name, Object value) {
        Map<String, ParameterValue> more = new LinkedHashMap<>(values);
        if (more.put(Checks.notNull(name, "parameter name"), ParameterValue.of(value)) != null) {
            throw new IllegalArgumentException("parameter '" + name + "' is given twice");
        }
        return new JobParameters(more);
    }

    public Optional<ParameterValue> get(String name) {
        return Optional.ofNullable(values.get(name));
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
        ParameterValue value = values.get(name);
        if (value == null) {
            throw new IllegalArgumentException("job parameter '" + name + "' is not set; the parameters are " + values.keySet());
        }
        if (!type.isInstance(value)) {
            throw new IllegalArgumentException("job parameter '" + name + "' is a " + value.getClass().getSimpleName()
                    + ", not a " + type.getSimpleName());
        }
        return type.cast(value);
    }
}
