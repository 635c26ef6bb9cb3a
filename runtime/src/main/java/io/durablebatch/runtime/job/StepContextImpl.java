package io.durablebatch.runtime.job;

import java.util.Optional;

import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.execution.StepName;
import io.durablebatch.job.JobContext;
import io.durablebatch.job.JobParameters;
import io.durablebatch.job.PartitionContext;
import io.durablebatch.job.Step;
import io.durablebatch.job.StepContext;

/** The context of one step attempt. */
final class StepContextImpl implements StepContext {

    private final JobName jobName;
    private final JobParameters parameters;
    private final JobExecution jobExecution;
    private final StepExecution stepExecution;
    private final Step step;
    private final boolean restart;
    private final Optional<PartitionContext> partition;
    private final JobContextImpl job;
    private volatile ExitStatus exitStatus;

    StepContextImpl(JobContextImpl job, JobExecution jobExecution, StepExecution stepExecution, Step step,
            boolean restart) {
        this(job, jobExecution, stepExecution, step, restart, Optional.empty());
    }

    private StepContextImpl(JobContextImpl job, JobExecution jobExecution, StepExecution stepExecution, Step step,
            boolean restart, Optional<PartitionContext> partition) {
        this.job = job;
        this.partition = partition;
        this.jobName = job.jobName();
        this.parameters = job.parameters();
        this.jobExecution = jobExecution;
        this.stepExecution = stepExecution;
        this.step = step;
        this.restart = restart;
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
        return jobExecution.jobInstanceId();
    }

    @Override
    public JobExecutionId jobExecutionId() {
        return jobExecution.id();
    }

    @Override
    public StepExecutionId stepExecutionId() {
        return stepExecution.id();
    }

    @Override
    public StepName stepName() {
        return step.name();
    }

    @Override
    public String nodeId() {
        return step.id();
    }

    @Override
    public boolean isRestart() {
        return restart;
    }

    @Override
    public Optional<PartitionContext> partition() {
        return partition;
    }

    /** The context of a worker of this step, running {@code partition} as {@code workerExecution}. */
    StepContextImpl forWorker(Step worker, StepExecution workerExecution, boolean resumes, PartitionContext partition) {
        return new StepContextImpl(job, jobExecution, workerExecution, worker, resumes, Optional.of(partition));
    }

    @Override
    public JobContext job() {
        return job;
    }

    @Override
    public void setExitStatus(ExitStatus exitStatus) {
        this.exitStatus = exitStatus;
    }

    Optional<ExitStatus> exitStatus() {
        return Optional.ofNullable(exitStatus);
    }
}
