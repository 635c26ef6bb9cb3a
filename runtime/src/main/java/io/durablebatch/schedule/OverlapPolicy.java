package io.durablebatch.schedule;

/**
 * What a fire does while the execution launched by the schedule's previous fire still runs.
 */
public enum OverlapPolicy {

    /** Launches the new fire's instance anyway: two fires of the job run side by side. */
    ALLOW,

    /**
     * Skips the new fire, recorded as such (the default): a batch job usually reads and writes the
     * same tables on every run, so two runs at once compete for them, and a run that lasts longer
     * than its period would otherwise pile up runs without bound.
     */
    SKIP,

    /**
     * Waits for the previous execution to end, then launches the new fire; if it still runs when the
     * schedule's next fire time comes, the waiting fire is skipped, so at most one fire waits.
     */
    WAIT
}
