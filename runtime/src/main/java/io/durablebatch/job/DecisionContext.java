package io.durablebatch.job;

import java.util.Optional;

import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobName;

/** What a {@link Decider} knows: the job, and the node the flow came from with its exit status. */
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
}
