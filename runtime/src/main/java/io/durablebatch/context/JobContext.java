package io.durablebatch.context;

import java.util.Optional;

import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobName;
import io.durablebatch.job.Split;
import io.durablebatch.operator.JobParameters;

/**
 * What a running job execution knows about itself, shared by its steps ({@link StepContext#job()})
 * and its job listeners: one per execution.
 * <p>
 * Its exit status is the one the execution's end records: the last one set, by
 * {@link #setExitStatus} or by the end transition taken ({@code on(..).end("DONE")}), else the one
 * the flow's end gives (a node without transitions ends with its own exit status; {@code end()},
 * {@code fail()}, a stop and a failure with their status name). It is recorded in the transaction
 * that records the end, so whoever reads the ended execution reads it; the last moment to set it is
 * a {@link io.durablebatch.listener.JobEndListener}. Like Spring Batch's
 * {@code JobExecution.setExitStatus}, it changes the exit status only, never the status.
 */
public interface JobContext {

    JobName jobName();

    JobParameters parameters();

    JobInstanceId jobInstanceId();

    JobExecutionId jobExecutionId();

    /** The exit status set for the job's end so far, if any; empty until one is set. */
    Optional<ExitStatus> exitStatus();

    /**
     * Sets the exit status the execution ends with, whatever its end (completed, failed or stopped);
     * the last one set wins.
     *
     * @throws IllegalStateException once the end is recorded (in a job listener's {@code afterJob}),
     *         or from a partition worker in another process than the execution's
     */
    void setExitStatus(ExitStatus exitStatus);

    /**
     * Takes back the exit status set so far: unless one is set again, the end records the one the
     * flow's end gives, as if none had been set.
     *
     * @throws IllegalStateException where {@link #setExitStatus} would
     */
    void clearExitStatus();

    /**
     * Whether this is the view of the job's context a flow of a {@link Split} runs with: each flow has
     * one of its own, whose exit status is the job's all the same.
     */
    default boolean inSplitFlow() {
        return false;
    }
}
