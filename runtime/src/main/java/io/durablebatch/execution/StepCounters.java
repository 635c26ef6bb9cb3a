package io.durablebatch.execution;

import io.durablebatch.Checks;

/** The item counters of a step execution, each an absolute value (never a delta). */
public record StepCounters(long readCount, long writeCount, long filterCount, long readSkipCount,
        long processSkipCount, long writeSkipCount, long commitCount, long rollbackCount) {

    public static final StepCounters ZERO = new StepCounters(0, 0, 0, 0, 0, 0, 0, 0);

    public StepCounters {
        Checks.notNegative(readCount, "counters.readCount");
        Checks.notNegative(writeCount, "counters.writeCount");
        Checks.notNegative(filterCount, "counters.filterCount");
        Checks.notNegative(readSkipCount, "counters.readSkipCount");
        Checks.notNegative(processSkipCount, "counters.processSkipCount");
        Checks.notNegative(writeSkipCount, "counters.writeSkipCount");
        Checks.notNegative(commitCount, "counters.commitCount");
        Checks.notNegative(rollbackCount, "counters.rollbackCount");
    }

    /** The element-wise sum, as used when partition results are aggregated. */
    public StepCounters plus(StepCounters other) {
        return new StepCounters(readCount + other.readCount, writeCount + other.writeCount,
                filterCount + other.filterCount, readSkipCount + other.readSkipCount,
                processSkipCount + other.processSkipCount, writeSkipCount + other.writeSkipCount,
                commitCount + other.commitCount, rollbackCount + other.rollbackCount);
    }

    public long skipCount() {
        return readSkipCount + processSkipCount + writeSkipCount;
    }
}
