package io.durablebatch.job;

import io.durablebatch.context.DecisionContext;

/**
 * Chooses the route of a flow at a {@link Decision} node: returns an exit code that the node's
 * transitions match. Its choice is recorded before the chosen node starts, and a restart with the
 * same durable input replays it instead of asking the decider again.
 */
@FunctionalInterface
public interface Decider {

    String decide(DecisionContext context) throws Exception;
}
