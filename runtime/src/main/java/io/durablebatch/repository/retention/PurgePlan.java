package io.durablebatch.repository.retention;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.durablebatch.Checks;
import io.durablebatch.execution.JobInstanceId;

/**
 * A bounded batch of instances to purge, each with what a survey observed of it. Applying it
 * re-validates every candidate first; see {@code JobRepository.applyPurge}.
 */
public record PurgePlan(List<PurgeCandidate> candidates) {

    public PurgePlan {
        candidates = List.copyOf(Checks.notNull(candidates, "candidates"));
        if (candidates.size() > PurgePlanRequest.MAX_LIMIT) {
            throw new IllegalArgumentException("candidates must be at most " + PurgePlanRequest.MAX_LIMIT + ", got "
                    + candidates.size());
        }
        Set<JobInstanceId> seen = new HashSet<>();
        for (PurgeCandidate candidate : candidates) {
            if (!seen.add(candidate.jobInstanceId())) {
                throw new IllegalArgumentException("candidates must name each instance once, got "
                        + candidate.jobInstanceId() + " twice");
            }
        }
    }

    public boolean isEmpty() {
        return candidates.isEmpty();
    }
}
