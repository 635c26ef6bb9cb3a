package io.durablebatch.repository.retention;

import java.time.Instant;
import java.util.Optional;

import io.durablebatch.Checks;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobName;

/**
 * One instance a survey found purgeable, with what it observed of it.
 * <p>
 * An instance has no version of its own; {@code observedVersion} stands for it: the number of
 * changes its executions have seen, i.e. the count of executions plus the sum of their versions.
 * Creating an execution adds one, and so does every mutation of one (each moves that execution's
 * version by exactly one), so any change since the survey, however small, moves it. A purge
 * applies only while the instance still has {@code executions} executions, the same observed
 * version and no hold.
 */
public record PurgeCandidate(JobInstanceId jobInstanceId, JobName jobName, int executions,
        ExecutionVersion observedVersion, Optional<ExecutionStatus> latestStatus, Optional<Instant> lastEndedAt) {

    public PurgeCandidate {
        Checks.notNull(jobInstanceId, "jobInstanceId");
        Checks.notNull(jobName, "jobName");
        Checks.notNegative(executions, "executions");
        Checks.notNull(observedVersion, "observedVersion");
        Checks.notNull(latestStatus, "latestStatus");
        Checks.notNull(lastEndedAt, "lastEndedAt");
    }
}
