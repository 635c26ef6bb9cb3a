package io.durablebatch.job;

import io.durablebatch.Checks;

/**
 * A node that runs no step: its {@link Decider} picks the exit code the node's transitions match.
 * The durable input of the decision is the node the flow came from and that node's exit status.
 * <p>
 * By default a restart with the same durable input replays the route an earlier execution took,
 * without asking the decider again. {@link #askedAgainOnRestart()} makes a restart ask it again (as
 * Jakarta Batch requires of its deciders), except after a stop the decision took: the stop's
 * restart target is where the restart continues, so that route is replayed.
 */
public final class Decision implements Node {

    private final String id;
    private final Decider decider;
    private final boolean askedAgainOnRestart;

    Decision(String id, Decider decider) {
        this(id, decider, false);
    }

    private Decision(String id, Decider decider, boolean askedAgainOnRestart) {
        this.id = Checks.token(id, "decision.id", StepSettings.MAX_NODE_ID_LENGTH);
        this.decider = Checks.notNull(decider, "decider");
        this.askedAgainOnRestart = askedAgainOnRestart;
    }

    /**
     * This decision, asking its decider again on every execution instead of replaying the route an
     * earlier execution of the instance took; a route to a stop's restart target is still replayed.
     * A plan node of its own kind, so the plan fingerprint tells the two behaviours apart.
     */
    public Decision askedAgainOnRestart() {
        return new Decision(id, decider, true);
    }

    /** Whether a restart asks the decider again ({@link #askedAgainOnRestart()}) rather than replaying its route. */
    public boolean isAskedAgainOnRestart() {
        return askedAgainOnRestart;
    }

    @Override
    public String id() {
        return id;
    }

    /** {@code decision}, or {@code decision-asked-again} when a restart asks the decider again. */
    @Override
    public String kind() {
        return askedAgainOnRestart ? "decision-asked-again" : "decision";
    }

    public Decider decider() {
        return decider;
    }

    @Override
    public String toString() {
        return "Decision[" + id + (askedAgainOnRestart ? ", asked again on restart" : "") + "]";
    }
}
