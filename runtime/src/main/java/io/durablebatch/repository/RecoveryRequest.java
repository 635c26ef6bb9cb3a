package io.durablebatch.repository;

import java.time.Instant;

import io.durablebatch.runtime.Checks;

/**
 * A request to resolve an orphaned (active, owner gone) or ambiguous ({@code UNKNOWN}) execution.
 * {@code observedVersion} is the version the requester based its decision on: if the execution
 * moved since, its owner is alive and the request is refused.
 */
public record RecoveryRequest(OperationId operationId, ActorRef actor, ReasonCode reason,
        RecoveryResolution resolution, ExecutionVersion observedVersion, Instant requestedAt) {

    public RecoveryRequest {
        Checks.notNull(operationId, "operationId");
        Checks.notNull(actor, "actor");
        Checks.notNull(reason, "reason");
        Checks.notNull(resolution, "resolution");
        Checks.notNull(observedVersion, "observedVersion");
        Checks.notNull(requestedAt, "requestedAt");
    }

    /** Whether {@code decision} records this same request (the time aside). */
    public boolean isRecordedBy(RecoveryDecision decision) {
        return decision.operationId().equals(operationId) && decision.actor().equals(actor)
                && decision.reason().equals(reason) && decision.resolution() == resolution
                && decision.observedVersion().equals(observedVersion);
    }
}
