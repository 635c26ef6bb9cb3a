package io.durablebatch.job;

import io.durablebatch.Checks;

/**
 * A node that runs no step: its {@link Decider} picks the exit code the node's transitions match.
 * The durable input of the decision is the node the flow came from and that node's exit status.
 */
public final class Decision implements Node {

    private final String id;
    private final Decider decider;

    Decision(String id, Decider decider) {
        this.id = Checks.token(id, "decision.id", StepSettings.MAX_NODE_ID_LENGTH);
        this.decider = Checks.notNull(decider, "decider");
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String kind() {
        return "decision";
    }

    public Decider decider() {
        return decider;
    }

    @Override
    public String toString() {
        return "Decision[" + id + "]";
    }
}
