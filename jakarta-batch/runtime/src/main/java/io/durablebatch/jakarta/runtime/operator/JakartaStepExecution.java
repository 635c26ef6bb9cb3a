package io.durablebatch.jakarta.runtime.operator;

import java.io.Serializable;
import java.util.Date;

import jakarta.batch.runtime.BatchStatus;
import jakarta.batch.runtime.Metric;
import jakarta.batch.runtime.StepExecution;

import io.durablebatch.jakarta.runtime.execution.PersistentUserData;
import io.durablebatch.jakarta.runtime.execution.StepMetrics;

/** A snapshot of a step execution as Jakarta shows it; its metrics are the kernel's step counters. */
public final class JakartaStepExecution implements StepExecution {

    private final io.durablebatch.execution.StepExecution step;

    public JakartaStepExecution(io.durablebatch.execution.StepExecution step) {
        this.step = step;
    }

    @Override
    public long getStepExecutionId() {
        return step.id().value();
    }

    @Override
    public String getStepName() {
        return step.stepName().value();
    }

    @Override
    public BatchStatus getBatchStatus() {
        return BatchStatuses.of(step.status());
    }

    @Override
    public Date getStartTime() {
        return JakartaJobExecution.date(step.startedAt());
    }

    @Override
    public Date getEndTime() {
        return JakartaJobExecution.date(step.endedAt());
    }

    @Override
    public String getExitStatus() {
        return BatchStatuses.running(step.status()) ? null : step.exitStatus().code();
    }

    /** The persistent user data the step kept when its attempt ended (null if none), read back on each call. */
    @Override
    public Serializable getPersistentUserData() {
        return PersistentUserData.of(step.checkpoint());
    }

    @Override
    public Metric[] getMetrics() {
        return StepMetrics.of(step.counters());
    }
}
