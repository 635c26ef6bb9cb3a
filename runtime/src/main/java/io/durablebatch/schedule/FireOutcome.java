package io.durablebatch.schedule;

/** What became of one fire time of a schedule. */
public enum FireOutcome {

    /** Its job instance was launched. */
    LAUNCHED,

    /** Skipped: the previous fire's execution still ran ({@link OverlapPolicy}). */
    SKIPPED_OVERLAP,

    /** Skipped: the schedule was paused. */
    SKIPPED_PAUSED,

    /** Missed while no replica ran, and skipped by the {@link MisfirePolicy}. */
    MISSED_SKIPPED,

    /** Missed while no replica ran, and launched at the next start by the {@link MisfirePolicy}. */
    MISSED_LAUNCHED
}
