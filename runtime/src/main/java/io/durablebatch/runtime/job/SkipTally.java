package io.durablebatch.runtime.job;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.durablebatch.job.ChunkStep;
import io.durablebatch.job.SkipLimitExceededException;
import io.durablebatch.runtime.sql.TransientFailures;

/**
 * The skips of one step attempt, per configured exception type. A failure counts against the most
 * specific configured type it is an instance of. A chunk works on a copy and the step adopts it
 * only when the chunk commits, so a rolled-back chunk's skips are not counted twice, nor logged.
 * It keeps the first few skips, described (the item and the reason), for the step's summary.
 * Beside the per-type limits, the step's {@link ChunkStep.SkipPolicy} skips the exceptions its filter
 * matches (one it excludes is not skipped, whatever type limit covers it) and bounds all skips together.
 */
final class SkipTally {

    private final String stepName;
    private final Map<Class<? extends Throwable>, Integer> limits;
    private final Map<Class<? extends Throwable>, Integer> counts;
    private final ChunkStep.SkipPolicy policy;
    /** The skips of the attempt in all, for the policy's limit. */
    private int total;
    /** The first skips of the attempt, described, for its summary. */
    private final List<String> first;

    SkipTally(String stepName, Map<Class<? extends Throwable>, Integer> limits, ChunkStep.SkipPolicy policy) {
        this(stepName, limits, policy, new HashMap<>(), 0, new ArrayList<>());
    }

    private SkipTally(String stepName, Map<Class<? extends Throwable>, Integer> limits, ChunkStep.SkipPolicy policy,
            Map<Class<? extends Throwable>, Integer> counts, int total, List<String> first) {
        this.stepName = stepName;
        this.limits = limits;
        this.policy = policy;
        this.counts = counts;
        this.total = total;
        this.first = first;
    }

    SkipTally copy() {
        return new SkipTally(stepName, limits, policy, new HashMap<>(counts), total, new ArrayList<>(first));
    }

    /** Whether {@code failure} is of a class the step skips, leaving its limits aside. */
    boolean isSkippable(Throwable failure) {
        if (TransientFailures.isTransient(failure) || policy.skippable().excludes(failure)) {
            return false;
        }
        return policy.skippable().matches(failure) || configuredType(failure) != null;
    }

    /**
     * Whether {@code failure} of {@code item} (the item a processor or writer refused; {@code null}
     * for an item that could not be read, which the failure describes) may be skipped; counts and
     * keeps its description for the summary if it is one of the first.
     *
     * @throws SkipLimitExceededException if skipping it would exceed its type's limit
     */
    boolean trySkip(Throwable failure, Object item) {
        if (!trySkip(failure)) {
            return false;
        }
        if (first.size() < SUMMARISED) {
            first.add(describe(item, failure));
        }
        return true;
    }

    /** A skip as logged: the item (abbreviated) and the failure, or the failure alone for an unreadable item. */
    static String describe(Object item, Throwable failure) {
        return item == null ? String.valueOf(failure) : abbreviate(String.valueOf(item)) + " (" + failure + ")";
    }

    /** The first skips of the attempt, described; at most {@value #SUMMARISED}. */
    List<String> first() {
        return List.copyOf(first);
    }

    static final int SUMMARISED = 5;
    private static final int ITEM_TEXT = 200;

    private static String abbreviate(String text) {
        return text.length() <= ITEM_TEXT ? text : text.substring(0, ITEM_TEXT) + "...";
    }

    /**
     * Whether {@code failure} may be skipped; counts it if so.
     *
     * @throws SkipLimitExceededException if skipping it would exceed its type's limit
     */
    boolean trySkip(Throwable failure) {
        if (!isSkippable(failure)) {
            return false;
        }
        Class<? extends Throwable> type = configuredType(failure);
        if (type != null) {
            int limit = limits.get(type);
            int count = counts.merge(type, 1, Integer::sum);
            if (count > limit) {
                throw new SkipLimitExceededException(stepName, type, limit, failure);
            }
        }
        total++;
        if (policy.limit().isPresent() && total > policy.limit().getAsInt()) {
            throw new SkipLimitExceededException(stepName, policy.limit().getAsInt(), failure);
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
