package io.durablebatch.rest.runtime;

import java.time.Instant;

import io.durablebatch.repository.retention.RetentionHold;

/** The retention hold of an instance: who placed it, why and when. */
public record HoldView(long jobInstanceId, String actor, String reason, Instant placedAt) {

    static HoldView of(RetentionHold hold) {
        return new HoldView(hold.jobInstanceId().value(), hold.actor().value(), hold.reason().value(), hold.placedAt());
    }
}
