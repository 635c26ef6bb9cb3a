package io.durablebatch.runtime.job;

import java.util.HashMap;
import java.util.Map;

import io.durablebatch.job.SkipLimitExceededException;
import io.durablebatch.runtime.sql.TransientFailures;

/**
 * The skips of one step attempt, per configured exception type. A failure counts against the most
 * specific configured type it is an instance of. A chunk works on a copy and the step adopts it
 * only when the chunk commits, so a rolled-back chunk's skips are not counted twice.
 */
final class SkipTally {

    private final String stepName;
    private final Map<Class<? extends Throwable>, Integer> limits;
    private final Map<Class<? extends Throwable>, Integer> counts;

    SkipTally(String stepName, Map<Class<? extends Throwable>, Integer> limits) {
        this(stepName, limits, new HashMap<>());
    }

    private SkipTally(String stepName, Map<Class<? extends Throwable>, Integer> limits,
            Map<Class<? extends Throwable>, Integer> counts) {
        this.stepName = stepName;
        this.limits = limits;
        this.counts = counts;
    }

    SkipTally copy() {
        return new SkipTally(stepName, limits, new HashMap<>(counts));
    }

    /**
     * Whether {@code failure} may be skipped; counts it if so.
     *
     * @throws SkipLimitExceededException if skipping it would exceed its type's limit
     */
    boolean trySkip(Throwable failure) {
        Class<? extends Throwable> type = configuredType(failure);
        if (type == null || TransientFailures.isTransient(failure)) {
            return false;
        }
        int limit = limits.get(type);
        int count = counts.merge(type, 1, Integer::sum);
        if (count > limit) {
            throw new SkipLimitExceededException(stepName, type, limit, failure);
        }
        return true;
    }

    private Class<? extends Throwable> configuredType(Throwable failure) {
        Class<? extends Throwable> best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (Class<? extends Throwable> type : limits.keySet()) {
            if (type.isInstance(failure)) {
                int distance = 0;
                for (Class<?> c = failure.getClass(); c != type; c = c.getSuperclass()) {
                    distance++;
                }
                if (distance < bestDistance) {
                    best = type;
                    bestDistance = distance;
                }
            }
        }
        return best;
    }
}
