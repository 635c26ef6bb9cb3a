package io.durablebatch.repository.flow;

/** What a flow decision did after its source node ended. */
public enum FlowTransitionKind {
    /** The plan's transition that matched the source node's exit status leads to a target node. */
    NEXT,
    /** A decider chose the target node; replaying it on restart keeps the route. */
    DECISION,
    /** The flow ends COMPLETED at the source node. */
    END,
    /** The flow ends FAILED at the source node. */
    FAIL,
    /** The flow stops at the source node; a target, when given, is where a restart resumes. */
    STOP;

    /** Whether a decision of this kind must name a target node. */
    public boolean requiresTarget() {
        return this == NEXT || this == DECISION;
    }

    /** Whether a decision of this kind may name a target node. */
    public boolean allowsTarget() {
        return this != END && this != FAIL;
    }
}
