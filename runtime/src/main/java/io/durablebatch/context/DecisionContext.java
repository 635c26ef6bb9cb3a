package io.durablebatch.context;

import java.util.List;
import java.util.Optional;

import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.job.Decider;
import io.durablebatch.job.Split;
import io.durablebatch.operator.JobParameters;

/**
 * What a {@link Decider} knows: the job, the node the flow came from with its exit status, and the
 * step executions of the last step the flow ran (of each flow, after a split).
 */
public interface DecisionContext {

    JobName jobName();

    JobParameters parameters();

    JobInstanceId jobInstanceId();

    JobExecutionId jobExecutionId();

    /** The id of the decision node. */
    String nodeId();

    /** The node the flow came from; empty when the decision is the start node. */
    Optional<String> previousNodeId();

    /** The exit status of the node the flow came from; empty when the decision is the start node. */
    Optional<ExitStatus> previousExitStatus();

    /**
     * The recorded step execution of the last step the flow ran before this decision (through any
     * decisions in between): of this execution, or of an earlier one whose completed step a restart
     * reused. Empty when no step ran before the decision.
     */
    Optional<StepExecution> lastStepExecution();

    /**
     * The recorded step executions of the last steps the flow ran before this decision: after a
     * {@link Split}, the last step of every flow that ran one, in the order the flows are declared;
     * otherwise {@link #lastStepExecution()}, as a list. {@code lastStepExecution()} is the last of them.
     */
    default List<StepExecution> lastStepExecutions() {
        return lastStepExecution().stream().toList();
    }

    /** The job's context, shared with its steps: a decider may set the job's exit status. */
    JobContext job();
}
