package io.durablebatch.repository.control;

import java.time.Instant;

import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.OperationId;
import io.durablebatch.execution.RequestDigest;

/**
 * The append-only record of one operator request, as stored. A retried request is answered from it
 * rather than applied again. It outlives a purge of its target.
 */
public record OperatorRecord(OperatorAction action, OperationId operationId, ActorRef actor, OperatorTarget target,
        RequestDigest requestDigest, String outcome, Instant recordedAt) {

    /** Whether {@code draft} is this same request: same action, operation id and request digest. */
    public boolean records(OperatorRecordDraft draft) {
        return action == draft.action() && operationId.equals(draft.operationId())
                && requestDigest.equals(draft.requestDigest());
    }
}
