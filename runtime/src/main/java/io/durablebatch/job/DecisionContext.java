package io.durablebatch.job;

import java.util.Optional;

import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.StepExecution;

/**
 * What a {@link Decider} knows: the job, the node the flow came from with its exit status, and the
 * step execution of the last step the flow ran.
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

    /** The job's context, shared with its steps: a decider may set the job's exit status. */
    JobContext job();
}
