package io.durablebatch.rest.runtime;

import java.util.List;

/** One execution with its step attempts and flow decisions, in creation and sequence order. */
public record ExecutionDetail(ExecutionView execution, List<StepView> steps, List<FlowDecisionView> flowDecisions) {
}
