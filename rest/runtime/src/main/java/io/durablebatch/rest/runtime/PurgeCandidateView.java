package io.durablebatch.rest.runtime;

import java.time.Instant;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobName;
import io.durablebatch.repository.retention.PurgeCandidate;

/**
 * One purgeable instance as a survey observed it; a purge request sends the survey's candidates
 * back unchanged, and is refused ({@code RETENTION_PLAN_STALE}) if any of them moved since.
 */
@JsonInclude(JsonInclude.Include.NON_ABSENT)
public record PurgeCandidateView(long jobInstanceId, String jobName, int executions, long observedVersion,
        Optional<ExecutionStatus> latestStatus, Optional<Instant> lastEndedAt) {

    static PurgeCandidateView of(PurgeCandidate candidate) {
        return new PurgeCandidateView(candidate.jobInstanceId().value(), candidate.jobName().value(),
                candidate.executions(), candidate.observedVersion().value(), candidate.latestStatus(),
                candidate.lastEndedAt());
    }

    PurgeCandidate candidate() {
        return new PurgeCandidate(JobInstanceId.of(jobInstanceId), JobName.of(jobName), executions,
                ExecutionVersion.of(observedVersion), latestStatus == null ? Optional.empty() : latestStatus,
                lastEndedAt == null ? Optional.empty() : lastEndedAt);
    }
}
