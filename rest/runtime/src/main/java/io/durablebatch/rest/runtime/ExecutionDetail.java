package io.durablebatch.rest.runtime;

import java.util.List;

/**
 * One execution with its step attempts and flow decisions (in creation and sequence order) and who
 * owns it: its owner, stop request and lease.
 */
public record ExecutionDetail(ExecutionView execution, List<StepView> steps, List<FlowDecisionView> flowDecisions,
        OwnershipView ownership) {
}
