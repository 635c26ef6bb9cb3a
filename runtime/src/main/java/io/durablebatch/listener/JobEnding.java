package io.durablebatch.listener;

import java.util.Optional;

import io.durablebatch.Checks;
import io.durablebatch.context.JobContext;
import io.durablebatch.execution.ExecutionFailure;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobName;
import io.durablebatch.operator.JobParameters;

/**
 * An attempt whose flow has ended, as a {@link JobEndListener} sees it before the end is recorded:
 * the job, the launch's parameters, the running execution's snapshot, the status and failure the end
 * records, and the execution's context, where the exit status the end records is read and set.
 */
public record JobEnding(JobName jobName, JobParameters parameters, JobExecution execution, ExecutionStatus status,
        Optional<ExecutionFailure> failure, JobContext context) {

    public JobEnding {
        Checks.notNull(jobName, "jobName");
        Checks.notNull(parameters, "parameters");
        Checks.notNull(execution, "execution");
        Checks.notNull(status, "status");
        Checks.notNull(failure, "failure");
        Checks.notNull(context, "context");
    }
}
