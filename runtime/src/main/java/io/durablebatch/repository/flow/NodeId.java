package io.durablebatch.repository.flow;

import io.durablebatch.Checks;

/**
 * The stable logical id of a node in a job plan. Unlike the step name, which is for display and may
 * be renamed, the node id is the restart authority: start limits, the latest attempt and replayed
 * decisions are all looked up by node id.
 */
public record NodeId(String value) {

    public static final int MAX_LENGTH = 100;

    public NodeId {
        Checks.token(value, "nodeId", MAX_LENGTH);
    }

    public static NodeId of(String value) {
        return new NodeId(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
