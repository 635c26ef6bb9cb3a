package io.durablebatch.job;

import io.durablebatch.Checks;
import io.durablebatch.execution.StepName;

/**
 * What every step kind shares: its display name, its node id (by default derived from the name), how many times
 * it may start across all executions of a job instance ({@code 0} = unlimited), and whether a
 * restart runs it again after it completed.
 */
public record StepSettings(StepName name, String nodeId, int startLimit, boolean allowStartIfComplete) {

    public static final int MAX_NODE_ID_LENGTH = 100;

    public StepSettings {
        Checks.notNull(name, "step.name");
        Checks.token(nodeId, "step.id", MAX_NODE_ID_LENGTH);
        Checks.notNegative(startLimit, "step.startLimit");
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
        return new StepSettings(name, nodeId, startLimit, allowStartIfComplete);
    }

    public StepSettings withStartLimit(int startLimit) {
        return new StepSettings(name, nodeId, startLimit, allowStartIfComplete);
    }

    public StepSettings withAllowStartIfComplete(boolean allowStartIfComplete) {
        return new StepSettings(name, nodeId, startLimit, allowStartIfComplete);
    }

    private static boolean isIdCharacter(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "_-.:/@".indexOf(c) >= 0;
    }
}
