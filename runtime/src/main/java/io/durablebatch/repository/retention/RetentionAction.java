package io.durablebatch.repository.retention;

/** What a retention operation did. Together with an operation id it names one audited request. */
public enum RetentionAction {
    PLACE_HOLD,
    RELEASE_HOLD,
    PURGE
}
