package io.durablebatch.schedule;

/**
 * What a schedule does, at the next start of the application, with the fire times that passed while
 * no replica was running. Whatever the policy, no fire time is ever run twice: each is its own job
 * instance, keyed by the time.
 */
public enum MisfirePolicy {

    /** Runs none of them: each is recorded as missed and skipped. */
    SKIP,

    /**
     * Runs the latest of them once and skips the others (the default): the job catches up with the
     * newest period, as a cron trigger's "fire once now" does in Quartz.
     */
    RUN_LATEST,

    /** Runs each of them, oldest first, up to the schedule's misfire limit; older ones are skipped. */
    RUN_ALL
}
