package io.durablebatch.runtime.partition;

/**
 * Where a partition plan stands after one poll of its parent: its partitions counted by status, and
 * how many of them that poll released from workers that lost their lease. A handful of numbers
 * whatever the plan's size: the parent decides from these, never from the plan itself.
 *
 * @param unassigned partitions waiting for a worker (including those just released)
 * @param running partitions assigned to a worker whose result is not in yet
 * @param released partitions this poll took back from workers whose lease ran out
 */
public record PlanSummary(long unassigned, long running, long completed, long failed, long stopped, long released) {

    /** Whether every partition has its final result: the parent can be aggregated. */
    public boolean allDone() {
        return unassigned == 0 && running == 0;
    }

    public long total() {
        return unassigned + running + completed + failed + stopped;
    }
}
