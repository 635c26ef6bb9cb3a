package io.durablebatch.runtime.job;

import java.util.Optional;

import io.durablebatch.Checks;
import io.durablebatch.context.JobContext;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobName;
import io.durablebatch.operator.JobParameters;

/**
 * The context of one job execution run here: the exit status set for its end, which the runner
 * records with the end. A remote partition worker gets one that refuses it: the execution's end is
 * recorded by another process.
 */
final class JobContextImpl implements JobContext {

    private final JobName jobName;
    private final JobParameters parameters;
    private final JobExecution execution;
    private final boolean local;
    /** The job's own context, when this is a split flow's view of it; its exit status is the job's. */
    private final JobContextImpl job;
    private volatile ExitStatus exitStatus;
    private volatile boolean recorded;

    private JobContextImpl(JobName jobName, JobParameters parameters, JobExecution execution, boolean local) {
        this(jobName, parameters, execution, local, null);
    }

    private JobContextImpl(JobName jobName, JobParameters parameters, JobExecution execution, boolean local,
            JobContextImpl job) {
        this.job = job;
        this.jobName = jobName;
        this.parameters = parameters;
        this.execution = execution;
        this.local = local;
    }

    /** The context of an execution this process runs and ends. */
    static JobContextImpl running(JobName jobName, JobParameters parameters, JobExecution execution) {
        return new JobContextImpl(jobName, parameters, execution, true);
    }

    /** The context a partition worker of another process's execution sees. */
    static JobContextImpl remote(JobName jobName, JobParameters parameters, JobExecution execution) {
        return new JobContextImpl(jobName, parameters, execution, false);
    }

    /**
     * The view of this context a flow of a split runs with: the same job, execution and exit status,
     * but an object of its own, so that a layer above can tell the flows' artifacts apart (Jakarta
     * Batch gives each flow of a split its own {@code JobContext}).
     */
    JobContextImpl forFlow() {
        return new JobContextImpl(jobName, parameters, execution, local, job == null ? this : job);
    }

    @Override
    public boolean inSplitFlow() {
        return job != null;
    }

    @Override
    public JobName jobName() {
        return jobName;
    }

    @Override
    public JobParameters parameters() {
        return parameters;
    }

    @Override
    public JobInstanceId jobInstanceId() {
        return execution.jobInstanceId();
    }

    @Override
    public JobExecutionId jobExecutionId() {
        return execution.id();
    }

    @Override
    public Optional<ExitStatus> exitStatus() {
        if (job != null) {
            return job.exitStatus();
        }
        return Optional.ofNullable(exitStatus);
    }

    @Override
    public void setExitStatus(ExitStatus exitStatus) {
        Checks.notNull(exitStatus, "exitStatus");
        if (job != null) {
            job.setExitStatus(exitStatus);
            return;
        }
        checkSettable();
        this.exitStatus = exitStatus;
    }

    @Override
    public void clearExitStatus() {
        if (job != null) {
            job.clearExitStatus();
            return;
        }
        checkSettable();
        this.exitStatus = null;
    }

    private void checkSettable() {
        if (!local) {
            throw new IllegalStateException("job execution " + execution.id() + " of job '" + jobName
                    + "' is run by another process: a partition worker here cannot set the exit status its end records");
        }
        if (recorded) {
            throw new IllegalStateException("the end of job execution " + execution.id() + " of job '" + jobName
                    + "' is recorded already: set its exit status before (a JobEndListener is the last moment)");
        }
    }

    /** The end is recorded: what is set from now on could not be recorded with it, and is refused. */
    void endRecorded() {
        recorded = true;
    }

    @Override
    public String toString() {
        return "JobContext[" + jobName + " execution " + execution.id() + "]";
    }
}
