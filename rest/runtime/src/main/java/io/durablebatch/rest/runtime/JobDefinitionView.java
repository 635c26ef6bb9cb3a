package io.durablebatch.rest.runtime;

import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.JobPlan;

/**
 * A job this application defines: its name, revision and plan fingerprint (which executions record),
 * its start node, nodes and transitions, and how often an execution whose owner was lost is
 * restarted by itself.
 */
@JsonInclude(JsonInclude.Include.NON_ABSENT)
public record JobDefinitionView(String name, String revision, String fingerprint, String startNode,
        List<JobPlan.PlanNode> nodes, List<TransitionView> transitions, Optional<Integer> restartOnOwnerLoss) {

    /** A transition of the plan: from a node, on an exit code pattern, to a node or an end. */
    @JsonInclude(JsonInclude.Include.NON_ABSENT)
    public record TransitionView(String from, String on, String kind, Optional<String> to) {
    }

    static JobDefinitionView of(JobDefinition definition) {
        JobPlan plan = definition.plan();
        return new JobDefinitionView(definition.name().value(), definition.revision(),
                definition.identity().fingerprint().hex(), plan.startNode(), plan.nodes(),
                plan.transitions().stream().map(t -> new TransitionView(t.from(), t.on().value(), t.kind().name(),
                        t.to())).toList(),
                definition.restartOnOwnerLoss().isPresent() ? Optional.of(definition.restartOnOwnerLoss().getAsInt())
                        : Optional.empty());
    }
}
