package io.durablebatch.repository.partition;

import java.util.Optional;

import io.durablebatch.Checks;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.repository.flow.NodeId;

/**
 * A partition plan that still hands out work: its parent step is STARTED in a STARTED job execution
 * and at least one of its partitions is unassigned. What a worker in any process of the application
 * needs to take part: the parent, its job execution, the job and node that define the worker step,
 * and the parent step attempt whose plan this one restarts (whose workers' checkpoints it resumes).
 */
public record OpenPartitionPlan(StepExecutionId parent, JobExecutionId jobExecution, JobName jobName, NodeId node,
        Optional<StepExecutionId> restartedFrom) {

    public OpenPartitionPlan {
        Checks.notNull(parent, "parent");
        Checks.notNull(jobExecution, "jobExecution");
        Checks.notNull(jobName, "jobName");
        Checks.notNull(node, "node");
        Checks.notNull(restartedFrom, "restartedFrom");
    }
}
