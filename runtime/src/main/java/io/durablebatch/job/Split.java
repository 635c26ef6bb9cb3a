package io.durablebatch.job;

import java.util.List;

import io.durablebatch.Checks;
import io.durablebatch.context.DecisionContext;

/**
 * A node that runs its flows in parallel, each on a thread of its own, and ends when all of them
 * have: COMPLETED (exit code {@code COMPLETED}, which the split's own transitions match) when every
 * flow completed; otherwise the job ends FAILED if a flow failed, else STOPPED. A stop request
 * reaches every flow. A decision right after the split sees the last step execution of every flow
 * ({@link DecisionContext#lastStepExecutions()}).
 * <p>
 * The flows' nodes belong to the job like any other: their ids are unique in it, their history
 * (start counts, checkpoints, decisions) attaches to their ids, so a restart reruns only what did
 * not complete: in a flow that completed every step is skipped on its recorded exit code (unless it
 * allows a start if complete). A transition of a flow's node stays inside its flow.
 */
public final class Split implements Node {

    private final String id;
    private final List<SplitFlow> flows;

    Split(String id, List<SplitFlow> flows) {
        this.id = Checks.token(id, "split.id", StepSettings.MAX_NODE_ID_LENGTH);
        this.flows = List.copyOf(Checks.notNull(flows, "split.flows"));
        if (this.flows.isEmpty()) {
            throw new IllegalArgumentException("split '" + id + "' needs at least one flow");
        }
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String kind() {
        return "split";
    }

    /** The flows, in declaration order. */
    public List<SplitFlow> flows() {
        return flows;
    }

    @Override
    public String toString() {
        return "Split[" + id + ", " + flows.size() + " flows]";
    }
}
