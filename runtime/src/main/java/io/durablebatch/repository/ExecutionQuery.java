package io.durablebatch.repository;

import java.time.Instant;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

import io.durablebatch.Checks;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobName;
import io.durablebatch.repository.control.OwnerToken;

/**
 * The filters of an execution listing ({@link JobRepository#findJobExecutions}): each is optional
 * and every one given must hold. The job or the status choose the index the listing walks; the
 * creation time range and the owner narrow what it finds there.
 *
 * @param statuses the statuses to list; empty lists every status
 * @param createdFrom the earliest creation time listed, inclusive
 * @param createdBefore the creation time from which executions are no longer listed, exclusive
 */
public record ExecutionQuery(Optional<JobName> job, Set<ExecutionStatus> statuses, Optional<Instant> createdFrom,
        Optional<Instant> createdBefore, Optional<OwnerToken> owner) {

    public ExecutionQuery {
        Checks.notNull(job, "job");
        Checks.notNull(statuses, "statuses");
        statuses.forEach(status -> Checks.notNull(status, "statuses[]"));
        statuses = statuses.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(statuses));
        Checks.notNull(createdFrom, "createdFrom");
        Checks.notNull(createdBefore, "createdBefore");
        Checks.notNull(owner, "owner");
        if (createdFrom.isPresent() && createdBefore.isPresent() && !createdFrom.get().isBefore(createdBefore.get())) {
            throw new IllegalArgumentException("createdFrom must be before createdBefore, got " + createdFrom.get()
                    + " and " + createdBefore.get());
        }
    }

    /** Every execution of every job. */
    public static ExecutionQuery all() {
        return new ExecutionQuery(Optional.empty(), Set.of(), Optional.empty(), Optional.empty(), Optional.empty());
    }

    public ExecutionQuery job(JobName job) {
        return new ExecutionQuery(Optional.of(Checks.notNull(job, "job")), statuses, createdFrom, createdBefore, owner);
    }

    public ExecutionQuery statuses(Set<ExecutionStatus> statuses) {
        return new ExecutionQuery(job, statuses, createdFrom, createdBefore, owner);
    }

    public ExecutionQuery createdFrom(Instant from) {
        return new ExecutionQuery(job, statuses, Optional.of(Checks.notNull(from, "createdFrom")), createdBefore,
                owner);
    }

    public ExecutionQuery createdBefore(Instant before) {
        return new ExecutionQuery(job, statuses, createdFrom, Optional.of(Checks.notNull(before, "createdBefore")),
                owner);
    }

    public ExecutionQuery ownedBy(OwnerToken owner) {
        return new ExecutionQuery(job, statuses, createdFrom, createdBefore, Optional.of(Checks.notNull(owner, "owner")));
    }
}
