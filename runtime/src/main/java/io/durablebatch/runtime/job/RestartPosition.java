package io.durablebatch.runtime.job;

import java.util.List;
import java.util.Optional;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.Node;
import io.durablebatch.repository.flow.FlowDecision;
import io.durablebatch.repository.flow.FlowTransitionKind;
import io.durablebatch.repository.flow.NodeId;
import io.durablebatch.repository.spi.KernelRepository;

/**
 * The node an execution begins at: the start node, or, when the previous attempt of the instance
 * ended on a STOP transition that names a restart position, that node. The position is the target
 * of the STOP's recorded route decision (the last one of that attempt), not a node of the attempt
 * that took it, so it may be any node of the flow, the stopping one included.
 */
final class RestartPosition {

    private RestartPosition() {
    }

    /** Where {@code execution} begins; {@code newInstance}: its instance was just created, so it has no history. */
    static Node of(KernelRepository repository, JobDefinition definition, JobExecution execution, boolean newInstance) {
        if (newInstance || execution.attempt() <= 1) {
            return definition.startNode();
        }
        return repository.jobExecutions(execution.jobInstanceId()).stream()
                .filter(earlier -> earlier.attempt() == execution.attempt() - 1
                        && earlier.status() == ExecutionStatus.STOPPED)
                .findFirst()
                .flatMap(stopped -> last(repository.flowDecisions(stopped.id())))
                .filter(decision -> decision.kind() == FlowTransitionKind.STOP)
                .flatMap(FlowDecision::toNode)
                .map(NodeId::value)
                // a plan the restart upgraded to may lack the node: it begins at the start then
                .flatMap(definition::node)
                .orElse(definition.startNode());
    }

    private static Optional<FlowDecision> last(List<FlowDecision> decisions) {
        return decisions.isEmpty() ? Optional.empty() : Optional.of(decisions.get(decisions.size() - 1));
    }
}
