package io.durablebatch.job;

/** What a tasklet says after one call: call me again (in a new transaction), or I am done. */
public enum RepeatStatus {
    CONTINUABLE,
    FINISHED
}
