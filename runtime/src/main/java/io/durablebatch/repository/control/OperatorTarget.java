package io.durablebatch.repository.control;

import java.util.Optional;

import io.durablebatch.Checks;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstanceId;

/** What an operator request acted on: an instance, and the execution when there is one. */
public record OperatorTarget(JobInstanceId jobInstanceId, Optional<JobExecutionId> jobExecutionId) {

    public OperatorTarget {
        Checks.notNull(jobInstanceId, "target.jobInstanceId");
        Checks.notNull(jobExecutionId, "target.jobExecutionId");
    }

    public static OperatorTarget instance(JobInstanceId jobInstanceId) {
        return new OperatorTarget(jobInstanceId, Optional.empty());
    }

    public static OperatorTarget execution(JobInstanceId jobInstanceId, JobExecutionId jobExecutionId) {
        return new OperatorTarget(jobInstanceId, Optional.of(Checks.notNull(jobExecutionId, "target.jobExecutionId")));
    }
}
