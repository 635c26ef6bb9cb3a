package io.durablebatch.jakarta.runtime.execution;

import jakarta.batch.runtime.Metric;
import jakarta.batch.runtime.Metric.MetricType;

import io.durablebatch.execution.StepCounters;

/** A step's counters as the eight Jakarta metrics. */
public final class StepMetrics {

    private StepMetrics() {
    }

    private record Value(MetricType getType, long getValue) implements Metric {
    }

    public static Metric[] of(StepCounters counters) {
        return new Metric[] {
                new Value(MetricType.READ_COUNT, counters.readCount()),
                new Value(MetricType.WRITE_COUNT, counters.writeCount()),
                new Value(MetricType.COMMIT_COUNT, counters.commitCount()),
                new Value(MetricType.ROLLBACK_COUNT, counters.rollbackCount()),
                new Value(MetricType.READ_SKIP_COUNT, counters.readSkipCount()),
                new Value(MetricType.PROCESS_SKIP_COUNT, counters.processSkipCount()),
                new Value(MetricType.FILTER_COUNT, counters.filterCount()),
                new Value(MetricType.WRITE_SKIP_COUNT, counters.writeSkipCount()) };
    }
}
