package io.durablebatch.benchmarks;

import java.util.Arrays;

/** Measured durations of one operation, summarised by nearest-rank percentiles in microseconds. */
final class Latencies {

    private final long[] sortedNanos;

    Latencies(long[] nanos) {
        if (nanos.length == 0) {
            throw new IllegalArgumentException("no samples");
        }
        this.sortedNanos = nanos.clone();
        Arrays.sort(sortedNanos);
    }

    /** The smallest sample that at least {@code percent} % of the samples do not exceed. */
    double percentileMicros(double percent) {
        int rank = (int) Math.ceil(percent / 100.0 * sortedNanos.length);
        return sortedNanos[Math.max(rank, 1) - 1] / 1_000.0;
    }
}
