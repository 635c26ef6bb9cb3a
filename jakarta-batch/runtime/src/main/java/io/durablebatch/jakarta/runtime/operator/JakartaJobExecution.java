package io.durablebatch.jakarta.runtime.operator;

import java.time.Instant;
import java.util.Date;
import java.util.Optional;
import java.util.Properties;

import jakarta.batch.runtime.BatchStatus;
import jakarta.batch.runtime.JobExecution;

import io.durablebatch.jakarta.runtime.execution.JakartaParameters;

/** A snapshot of a job execution as Jakarta shows it. */
final class JakartaJobExecution implements JobExecution {

    private final io.durablebatch.execution.JobExecution execution;

    JakartaJobExecution(io.durablebatch.execution.JobExecution execution) {
        this.execution = execution;
    }

    @Override
    public long getExecutionId() {
        return execution.id().value();
    }

    /** The name {@code start} was given: the job XML's file name. */
    @Override
    public String getJobName() {
        return execution.jobName().value();
    }

    @Override
    public BatchStatus getBatchStatus() {
        return BatchStatuses.of(execution.status());
    }

    @Override
    public Date getStartTime() {
        return date(execution.startedAt());
    }

    @Override
    public Date getEndTime() {
        return date(execution.endedAt());
    }

    /** Null while the execution runs, as Jakarta has it; then the exit status of its end. */
    @Override
    public String getExitStatus() {
        return BatchStatuses.running(execution.status()) ? null : execution.exitStatus().code();
    }

    @Override
    public Date getCreateTime() {
        return Date.from(execution.createdAt());
    }

    @Override
    public Date getLastUpdatedTime() {
        return Date.from(execution.lastUpdated());
    }

    @Override
    public Properties getJobParameters() {
        return JakartaParameters.properties(execution.parameters());
    }

    static Date date(Optional<Instant> instant) {
        return instant.map(Date::from).orElse(null);
    }

    @Override
    public String toString() {
        return "JobExecution[" + getExecutionId() + " " + getJobName() + " " + getBatchStatus() + "]";
    }
}
