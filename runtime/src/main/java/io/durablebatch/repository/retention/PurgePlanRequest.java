package io.durablebatch.repository.retention;

import java.time.Instant;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

import io.durablebatch.Checks;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobName;

/**
 * Which instances a purge survey looks for: at most {@code limit} instances, created before
 * {@code cutoff}, whose executions all ended before it; optionally only those of one job, and only
 * those whose latest execution ended in one of {@code statuses} (empty: any finished status, and
 * also instances that never ran). Instances are surveyed in id order, starting after
 * {@code resumeAfter}, so a purge loop passes over the same rows only once.
 */
public record PurgePlanRequest(Instant cutoff, int limit, Optional<JobName> jobName, Set<ExecutionStatus> statuses,
        Optional<JobInstanceId> resumeAfter) {

    /** The largest batch a survey returns and a plan may hold. */
    public static final int MAX_LIMIT = 10_000;

    /** The statuses a purge may filter on: an instance with any other latest status is never purged. */
    public static final Set<ExecutionStatus> FINISHED = Set.copyOf(EnumSet.of(ExecutionStatus.STOPPED,
            ExecutionStatus.FAILED, ExecutionStatus.COMPLETED, ExecutionStatus.ABANDONED));

    public PurgePlanRequest {
        Checks.notNull(cutoff, "cutoff");
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIMIT + ", got " + limit);
        }
        Checks.notNull(jobName, "jobName");
        Checks.notNull(statuses, "statuses");
        for (ExecutionStatus status : statuses) {
            if (!FINISHED.contains(Checks.notNull(status, "statuses[]"))) {
                throw new IllegalArgumentException("statuses may only hold STOPPED, FAILED, COMPLETED and ABANDONED, got "
                        + status);
            }
        }
        statuses = statuses.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(statuses));
        Checks.notNull(resumeAfter, "resumeAfter");
    }

    /** Any finished instance of any job whose executions all ended before {@code cutoff}. */
    public static PurgePlanRequest before(Instant cutoff, int limit) {
        return new PurgePlanRequest(cutoff, limit, Optional.empty(), Set.of(), Optional.empty());
    }

    public PurgePlanRequest forJob(JobName jobName) {
        return new PurgePlanRequest(cutoff, limit, Optional.of(Checks.notNull(jobName, "jobName")), statuses,
                resumeAfter);
    }

    public PurgePlanRequest withStatuses(Set<ExecutionStatus> statuses) {
        return new PurgePlanRequest(cutoff, limit, jobName, statuses, resumeAfter);
    }

    public PurgePlanRequest resumingAfter(JobInstanceId jobInstanceId) {
        return new PurgePlanRequest(cutoff, limit, jobName, statuses,
                Optional.of(Checks.notNull(jobInstanceId, "resumeAfter")));
    }
}
