package io.durablebatch.job;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.UnaryOperator;

import io.durablebatch.Checks;
import io.durablebatch.execution.ParameterValue;
import io.durablebatch.operator.JobParameters;

/**
 * A value of the plan that each execution resolves from its own job parameters: a transition's
 * pattern, target or exit status, or a step's start limit or allow-start-if-complete. The plan's
 * fingerprint records its written form, never a resolved value; so a restart with other
 * parameters runs under the same plan and may route differently, while changing the written form
 * makes the restart incompatible. A {@linkplain #literal literal} is the plain value, and
 * fingerprints exactly as one written without this class.
 * <p>
 * The resolver must be a function of the parameters alone: it is called once per execution,
 * before the first node runs, and what it returns is checked then (a pattern must be valid, a
 * target must name a node of the job, a start limit must be a number); a value that is not fails the
 * execution before any step starts.
 */
public final class ParameterizedValue {

    private final String written;
    private final Optional<Function<JobParameters, String>> resolver;

    private ParameterizedValue(String written, Optional<Function<JobParameters, String>> resolver) {
        this.written = written;
        this.resolver = resolver;
    }

    /** The value {@code value} in every execution. */
    public static ParameterizedValue literal(String value) {
        return new ParameterizedValue(Checks.notNull(value, "value"), Optional.empty());
    }

    /**
     * The value {@code resolver} computes from an execution's job parameters; {@code writtenForm}
     * stands for it in the plan (and its fingerprint), so it must change whenever the resolver
     * would compute something else from the same parameters.
     */
    public static ParameterizedValue of(String writtenForm, Function<JobParameters, String> resolver) {
        return new ParameterizedValue(Checks.text(writtenForm, "writtenForm", 1000),
                Optional.of(Checks.notNull(resolver, "resolver")));
    }

    /** The text of the job parameter {@code name} (identifying or not) of each execution; unset is an error. */
    public static ParameterizedValue parameter(String name) {
        Checks.notNull(name, "name");
        return of("jobParameters['" + name + "']", parameters -> parameters.get(name).map(ParameterValue::text)
                .orElseThrow(() -> new IllegalArgumentException("job parameter '" + name + "' is not set")));
    }

    /** What stands for this value in the plan: the literal value, or the written form of a resolved one. */
    public String writtenForm() {
        return written;
    }

    /** Whether this value is the same in every execution. */
    public boolean isLiteral() {
        return resolver.isEmpty();
    }

    /**
     * This value in an execution with {@code parameters}.
     *
     * @throws IllegalArgumentException when the resolver finds no value, or fails
     */
    public String resolve(JobParameters parameters) {
        if (resolver.isEmpty()) {
            return written;
        }
        String value;
        try {
            value = resolver.get().apply(parameters);
        } catch (IllegalArgumentException e) {
            throw e;
        } catch (RuntimeException e) {
            // the resolver is user code: whatever it throws fails the execution, named, as a bad value does
            throw new IllegalArgumentException("its resolver failed: " + e, e);
        }
        if (value == null) {
            throw new IllegalArgumentException("its resolver returned null");
        }
        return value;
    }

    /**
     * This value in an execution with {@code parameters}, parsed by {@code parse}.
     *
     * @param what what the value is, for the message ("the start limit")
     * @throws IllegalArgumentException naming {@code what} when the value cannot be resolved, or
     *         {@code parse} refuses what it resolves to
     */
    <T> T resolve(String what, JobParameters parameters, Function<String, T> parse) {
        String text = null;
        try {
            text = resolve(parameters);
            return parse.apply(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + " " + this + (text == null ? " cannot be resolved: "
                    : " resolved to '" + text + "', which is invalid: ") + e.getMessage(), e);
        }
    }

    /**
     * This value with {@code then} applied to what it resolves to. The written form stays: use it
     * only for a mapping that is part of the plan's structure (an element id to its node).
     */
    public ParameterizedValue map(UnaryOperator<String> then) {
        Objects.requireNonNull(then, "then");
        return resolver.isEmpty() ? literal(then.apply(written))
                : new ParameterizedValue(written, Optional.of(resolver.get().andThen(then)));
    }

    /**
     * The canonical plan's text for this value: a literal as every value was always written, a
     * resolved one as {@code $} and its written form (no literal's canonical text begins with {@code $}).
     */
    String canonical() {
        return resolver.isEmpty() ? Transition.canonical(written) : "$" + Transition.canonical(written);
    }

    @Override
    public String toString() {
        return resolver.isEmpty() ? written : "${" + written + "}";
    }
}
