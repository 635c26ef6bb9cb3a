package io.durablebatch.retention;

import java.time.Instant;

import io.durablebatch.repository.ActorRef;
import io.durablebatch.repository.JobInstanceId;
import io.durablebatch.repository.ReasonCode;

/**
 * The single retention hold of a job instance: while it is in place, no purge touches the
 * instance or anything it owns.
 */
public record RetentionHold(JobInstanceId jobInstanceId, ActorRef actor, ReasonCode reason, Instant placedAt) {
}
