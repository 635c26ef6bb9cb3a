package io.durablebatch.repository.flow;

import java.time.Instant;
import java.util.Optional;

import io.durablebatch.Checks;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.PlanFingerprint;

/**
 * One transition the flow already validated against its plan, to append before its target starts:
 * from which node to which, of what kind, under which plan, on which durable input, with which
 * outcome (the exit status the route was chosen on).
 */
public record FlowDecisionRequest(JobExecutionId jobExecutionId, NodeId fromNode, Optional<NodeId> toNode,
        FlowTransitionKind kind, PlanFingerprint planFingerprint, InputDigest inputDigest, ExitStatus outcome,
        Instant decidedAt) {

    public FlowDecisionRequest {
        Checks.notNull(jobExecutionId, "decision.jobExecutionId");
        Checks.notNull(fromNode, "decision.fromNode");
        Checks.notNull(toNode, "decision.toNode");
        Checks.notNull(kind, "decision.kind");
        Checks.notNull(planFingerprint, "decision.planFingerprint");
        Checks.notNull(inputDigest, "decision.inputDigest");
        Checks.notNull(outcome, "decision.outcome");
        Checks.notNull(decidedAt, "decision.decidedAt");
        if (kind.requiresTarget() && toNode.isEmpty()) {
            throw new IllegalArgumentException("decision.toNode is required for a " + kind + " decision");
        }
        if (!kind.allowsTarget() && toNode.isPresent()) {
            throw new IllegalArgumentException("decision.toNode must be empty for a " + kind + " decision, got "
                    + toNode.get());
        }
    }
}
