package io.durablebatch.repository.retention;

import java.time.Instant;

import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.ReasonCode;

/**
 * The single retention hold of a job instance: while it is in place, no purge touches the
 * instance or anything it owns.
 */
public record RetentionHold(JobInstanceId jobInstanceId, ActorRef actor, ReasonCode reason, Instant placedAt) {
}
