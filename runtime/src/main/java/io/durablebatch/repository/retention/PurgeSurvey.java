package io.durablebatch.repository.retention;

import java.util.List;

import io.durablebatch.Checks;

/**
 * The result of a purge survey: at most {@code request.limit()} candidates in instance id order.
 * When the limit was reached there may be more: {@link #nextRequest()} surveys the next batch.
 */
public record PurgeSurvey(PurgePlanRequest request, List<PurgeCandidate> candidates) {

    public PurgeSurvey {
        Checks.notNull(request, "request");
        candidates = List.copyOf(Checks.notNull(candidates, "candidates"));
    }

    /** The plan that purges exactly these candidates, if none changed by then. */
    public PurgePlan plan() {
        return new PurgePlan(candidates);
    }

    /** Whether the survey stopped at its limit, so a next batch may exist. */
    public boolean limitReached() {
        return candidates.size() == request.limit();
    }

    /** The same request, resuming after the last candidate of this survey. */
    public PurgePlanRequest nextRequest() {
        return candidates.isEmpty() ? request
                : request.resumingAfter(candidates.get(candidates.size() - 1).jobInstanceId());
    }
}
