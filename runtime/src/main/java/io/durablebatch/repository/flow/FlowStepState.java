package io.durablebatch.repository.flow;

import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.StepExecution;

/**
 * The durable state of one flow node in one job instance: its latest step attempt (whatever step
 * name it ran under) and the starts it consumed across every execution of the instance.
 */
public record FlowStepState(JobInstanceId jobInstanceId, NodeId nodeId, StepExecution latest, int startsConsumed) {

    /** Whether the node may start once more under {@code limit}. */
    public boolean mayStart(StartLimit limit) {
        return limit.allowsStartAfter(startsConsumed);
    }
}
