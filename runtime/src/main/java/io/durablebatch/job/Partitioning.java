package io.durablebatch.job;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import io.durablebatch.Checks;
import io.durablebatch.repository.partition.PartitionPlanEntry;

/**
 * What a {@link Partitioner} decides for one attempt of a partitioned step: resume the plan stored by
 * the attempt it restarts (its completed partitions are kept), or store a fresh plan, run from the
 * start; and, optionally, how many local worker threads the attempt uses, overriding the step's.
 *
 * @param fresh the plan to store, or empty to resume the stored one
 * @param workers local worker threads for this attempt, or empty for the step's own setting
 */
public record Partitioning(Optional<List<PartitionPlanEntry>> fresh, OptionalInt workers) {

    public Partitioning {
        Checks.notNull(fresh, "partitioning.fresh");
        Checks.notNull(workers, "partitioning.workers");
        fresh = fresh.map(List::copyOf);
        workers.ifPresent(n -> Checks.positive(n, "partitioning.workers"));
    }

    /** A fresh plan: every partition runs from the start, whatever a resumed attempt stored. */
    public static Partitioning of(List<PartitionPlanEntry> entries) {
        return new Partitioning(Optional.of(Checks.notNull(entries, "partitioning.fresh")), OptionalInt.empty());
    }

    /** The plan the restarted attempt stored, its completed partitions kept. */
    public static Partitioning resume() {
        return new Partitioning(Optional.empty(), OptionalInt.empty());
    }

    /** This decision with {@code workers} local worker threads for the attempt. */
    public Partitioning withWorkers(int workers) {
        return new Partitioning(fresh, OptionalInt.of(workers));
    }

    /** Whether the stored plan is resumed. */
    public boolean resumes() {
        return fresh.isEmpty();
    }
}
