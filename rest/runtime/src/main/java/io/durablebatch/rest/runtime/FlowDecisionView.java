package io.durablebatch.rest.runtime;

import java.time.Instant;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.durablebatch.repository.flow.FlowDecision;

/** One recorded flow decision of an execution: from which node to which, and on what outcome. */
@JsonInclude(JsonInclude.Include.NON_ABSENT)
public record FlowDecisionView(int sequence, String fromNode, Optional<String> toNode, String kind, String outcome,
        Instant decidedAt) {

    static FlowDecisionView of(FlowDecision decision) {
        return new FlowDecisionView(decision.sequence(), decision.fromNode().value(),
                decision.toNode().map(n -> n.value()), decision.kind().name(), decision.outcome().code(),
                decision.decidedAt());
    }
}
