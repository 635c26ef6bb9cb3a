package io.durablebatch.repository;

import java.time.Instant;

import io.durablebatch.Checks;
import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.OperationId;
import io.durablebatch.execution.ReasonCode;

/**
 * A request to resolve an orphaned (active, owner gone) or ambiguous ({@code UNKNOWN}) execution.
 * {@code observedVersion} is the version the requester based its decision on: if the execution
 * moved since, the request is refused. An execution whose lease is live is refused too, unless
 * {@code ownerDeclaredDead}: the requester knows the owner is gone (say, its process was killed)
 * and does not want to wait for the lease to run out. Should the owner be alive after all, it is
 * fenced off: its next commit is refused and it abandons the work.
 */
public record RecoveryRequest(OperationId operationId, ActorRef actor, ReasonCode reason,
        RecoveryResolution resolution, ExecutionVersion observedVersion, Instant requestedAt,
        boolean ownerDeclaredDead) {

    /** A request that respects the owner's lease. */
    public RecoveryRequest(OperationId operationId, ActorRef actor, ReasonCode reason, RecoveryResolution resolution,
            ExecutionVersion observedVersion, Instant requestedAt) {
        this(operationId, actor, reason, resolution, observedVersion, requestedAt, false);
    }

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
