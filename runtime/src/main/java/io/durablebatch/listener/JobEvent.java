package io.durablebatch.listener;

import io.durablebatch.Checks;
import io.durablebatch.context.JobContext;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobName;
import io.durablebatch.operator.JobParameters;

/**
 * One attempt to run a job, as a {@link JobListener} sees it: the job, the parameters of the
 * launch, the execution's snapshot (STARTED before the job; as recorded at its end after it) and
 * its context (where {@code beforeJob} may set the exit status the end records).
 */
public record JobEvent(JobName jobName, JobParameters parameters, JobExecution execution, JobContext context) {

    public JobEvent {
        Checks.notNull(jobName, "jobName");
        Checks.notNull(parameters, "parameters");
        Checks.notNull(execution, "execution");
        Checks.notNull(context, "context");
    }
}
