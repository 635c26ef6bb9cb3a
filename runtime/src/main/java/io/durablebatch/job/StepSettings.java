package io.durablebatch.job;

import java.util.Locale;
import java.util.Optional;

import io.durablebatch.Checks;
import io.durablebatch.execution.StepName;
import io.durablebatch.operator.JobParameters;

/**
 * What every step kind shares: its display name, its node id (by default derived from the name), how many times
 * it may start across all executions of a job instance ({@code 0} = unlimited), and whether a
 * restart runs it again after it completed. Either of the last two may be resolved per execution
 * from the job parameters ({@code startLimitPerExecution}, {@code allowStartIfCompletePerExecution}),
 * which then stands for the literal one until the execution resolves it.
 */
public record StepSettings(StepName name, String nodeId, int startLimit, boolean allowStartIfComplete,
        Optional<ParameterizedValue> startLimitPerExecution, Optional<ParameterizedValue> allowStartIfCompletePerExecution) {

    public static final int MAX_NODE_ID_LENGTH = 100;

    public StepSettings {
        Checks.notNull(name, "step.name");
        Checks.token(nodeId, "step.id", MAX_NODE_ID_LENGTH);
        Checks.notNegative(startLimit, "step.startLimit");
        Checks.notNull(startLimitPerExecution, "step.startLimitPerExecution");
        Checks.notNull(allowStartIfCompletePerExecution, "step.allowStartIfCompletePerExecution");
        if (startLimitPerExecution.filter(ParameterizedValue::isLiteral).isPresent()
                || allowStartIfCompletePerExecution.filter(ParameterizedValue::isLiteral).isPresent()) {
            throw new IllegalArgumentException("step settings resolved per execution must not be literals: "
                    + "a literal is the plain setting");
        }
    }

    public StepSettings(StepName name, String nodeId, int startLimit, boolean allowStartIfComplete) {
        this(name, nodeId, startLimit, allowStartIfComplete, Optional.empty(), Optional.empty());
    }

    /** Settings with defaults: the node id is the name, with characters an id cannot hold as {@code -}. */
    public static StepSettings of(String name) {
        StepName stepName = StepName.of(name);
        StringBuilder id = new StringBuilder(name.length());
        name.chars().forEach(c -> id.append(isIdCharacter(c) ? (char) c : '-'));
        return new StepSettings(stepName, id.length() > MAX_NODE_ID_LENGTH ? id.substring(0, MAX_NODE_ID_LENGTH)
                : id.toString(), 0, false);
    }

    public StepSettings withNodeId(String nodeId) {
        return new StepSettings(name, nodeId, startLimit, allowStartIfComplete, startLimitPerExecution,
                allowStartIfCompletePerExecution);
    }

    public StepSettings withStartLimit(int startLimit) {
        return new StepSettings(name, nodeId, startLimit, allowStartIfComplete, Optional.empty(),
                allowStartIfCompletePerExecution);
    }

    /** The start limit {@code startLimit} resolves to per execution; a literal is checked and kept here. */
    public StepSettings withStartLimit(ParameterizedValue startLimit) {
        if (Checks.notNull(startLimit, "startLimit").isLiteral()) {
            return withStartLimit(startLimit(startLimit.writtenForm()));
        }
        return new StepSettings(name, nodeId, 0, allowStartIfComplete, Optional.of(startLimit),
                allowStartIfCompletePerExecution);
    }

    public StepSettings withAllowStartIfComplete(boolean allowStartIfComplete) {
        return new StepSettings(name, nodeId, startLimit, allowStartIfComplete, startLimitPerExecution, Optional.empty());
    }

    /** Allow-start-if-complete as {@code allowStartIfComplete} resolves per execution; a literal is checked and kept here. */
    public StepSettings withAllowStartIfComplete(ParameterizedValue allowStartIfComplete) {
        if (Checks.notNull(allowStartIfComplete, "allowStartIfComplete").isLiteral()) {
            return withAllowStartIfComplete(allowStartIfComplete(allowStartIfComplete.writtenForm()));
        }
        return new StepSettings(name, nodeId, startLimit, false, startLimitPerExecution,
                Optional.of(allowStartIfComplete));
    }

    /** Whether a setting is resolved per execution. */
    public boolean isPerExecution() {
        return startLimitPerExecution.isPresent() || allowStartIfCompletePerExecution.isPresent();
    }

    /**
     * These settings as an execution with {@code parameters} has them.
     *
     * @throws IllegalArgumentException naming the setting that does not resolve to a valid value
     */
    StepSettings resolvedFor(JobParameters parameters) {
        int limit = startLimitPerExecution.map(value -> value.resolve("the start limit", parameters,
                StepSettings::startLimit)).orElse(startLimit);
        boolean allow = allowStartIfCompletePerExecution.map(value -> value.resolve("the allow-start-if-complete",
                parameters, StepSettings::allowStartIfComplete)).orElse(allowStartIfComplete);
        return new StepSettings(name, nodeId, limit, allow);
    }

    private static int startLimit(String text) {
        int limit;
        try {
            limit = Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("a start limit is a whole number, 0 (no limit) or more");
        }
        Checks.notNegative(limit, "step.startLimit");
        return limit;
    }

    private static boolean allowStartIfComplete(String text) {
        return switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("allow-start-if-complete is true or false");
        };
    }

    private static boolean isIdCharacter(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "_-.:/@".indexOf(c) >= 0;
    }
}
