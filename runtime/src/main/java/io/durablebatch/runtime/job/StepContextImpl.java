package io.durablebatch.runtime.job;

import java.util.Optional;

import io.durablebatch.Checks;
import io.durablebatch.context.JobContext;
import io.durablebatch.context.PartitionContext;
import io.durablebatch.context.StepContext;
import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.execution.StepName;
import io.durablebatch.job.Step;
import io.durablebatch.operator.JobParameters;

/** The context of one step attempt. */
final class StepContextImpl implements StepContext {

    private final StepExecution stepExecution;
    private final Step step;
    private final boolean restart;
    private final Optional<PartitionContext> partition;
    private final JobContextImpl job;
    private final PartitionEvents events;
    private volatile ExitStatus exitStatus;
    /** Whether a tasklet runs this attempt, which then has a checkpoint of its own. */
    private volatile boolean tasklet;
    private volatile Optional<Checkpoint> checkpoint = Optional.empty();

    /** The context of an attempt of a step of {@code job}'s execution, running as {@code stepExecution}. */
    StepContextImpl(JobContextImpl job, StepExecution stepExecution, Step step, boolean restart) {
        this(job, stepExecution, step, restart, Optional.empty(), null);
    }

    private StepContextImpl(JobContextImpl job, StepExecution stepExecution, Step step, boolean restart,
            Optional<PartitionContext> partition, PartitionEvents events) {
        this.job = job;
        this.events = events;
        this.partition = partition;
        this.stepExecution = stepExecution;
        this.step = step;
        this.restart = restart;
    }

    @Override
    public JobName jobName() {
        return job.jobName();
    }

    @Override
    public JobParameters parameters() {
        return job.parameters();
    }

    @Override
    public JobInstanceId jobInstanceId() {
        return job.jobInstanceId();
    }

    @Override
    public JobExecutionId jobExecutionId() {
        return job.jobExecutionId();
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

    /**
     * The context of a worker of this step, running {@code partition} as {@code workerExecution};
     * {@code events} (null without an analyzer) takes what it collects.
     */
    StepContextImpl forWorker(Step worker, StepExecution workerExecution, boolean resumes, PartitionContext partition,
            PartitionEvents events) {
        return new StepContextImpl(job, workerExecution, worker, resumes, Optional.of(partition), events);
    }

    @Override
    public void collect(Object data) {
        if (events == null) {
            StepContext.super.collect(data);
        }
        events.collected(partition.orElseThrow(), data);
    }

    @Override
    public JobContext job() {
        return job;
    }

    /** Opens the tasklet's checkpoint of this attempt, starting from the one it resumes. */
    void openTaskletCheckpoint(Optional<Checkpoint> resumed) {
        this.checkpoint = resumed;
        this.tasklet = true;
    }

    @Override
    public Optional<Checkpoint> checkpoint() {
        return checkpoint;
    }

    @Override
    public void saveCheckpoint(Checkpoint checkpoint) {
        Checks.notNull(checkpoint, "checkpoint");
        if (!tasklet) {
            throw new IllegalStateException("step '" + step.name() + "' is not a tasklet step: a chunk step's "
                    + "checkpoint is its reader's and writer's, saved at each chunk's commit");
        }
        this.checkpoint = Optional.of(checkpoint);
    }

    @Override
    public void setExitStatus(ExitStatus exitStatus) {
        this.exitStatus = exitStatus;
    }

    Optional<ExitStatus> exitStatus() {
        return Optional.ofNullable(exitStatus);
    }
}
