package io.durablebatch.runtime.jakarta.operator;

import java.io.Serializable;
import java.util.Date;

import jakarta.batch.runtime.BatchStatus;
import jakarta.batch.runtime.Metric;
import jakarta.batch.runtime.StepExecution;

import io.durablebatch.runtime.jakarta.execution.ChunkCheckpoint;
import io.durablebatch.runtime.jakarta.execution.StepMetrics;

/** A snapshot of a step execution as Jakarta shows it; its metrics are the kernel's step counters. */
final class JakartaStepExecution implements StepExecution {

    private final io.durablebatch.execution.StepExecution step;

    JakartaStepExecution(io.durablebatch.execution.StepExecution step) {
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

    /** A chunk step's, as its last committed checkpoint holds it; none for other steps. */
    @Override
    public Serializable getPersistentUserData() {
        return ChunkCheckpoint.persistentUserData(step.checkpoint());
    }

    @Override
    public Metric[] getMetrics() {
        return StepMetrics.of(step.counters());
    }
}
