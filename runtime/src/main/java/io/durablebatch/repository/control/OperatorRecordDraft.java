package io.durablebatch.repository.control;

import java.time.Instant;

import io.durablebatch.Checks;
import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.OperationId;
import io.durablebatch.execution.RequestDigest;

/**
 * One operator request to record in the transaction of its effect: the action and its operation
 * id (unique together), who asked, what it acted on, the digest of the request in canonical form,
 * a short outcome (e.g. {@code STOP_REQUESTED}) and when.
 */
public record OperatorRecordDraft(OperatorAction action, OperationId operationId, ActorRef actor,
        OperatorTarget target, RequestDigest requestDigest, String outcome, Instant recordedAt) {

    public static final int MAX_OUTCOME_LENGTH = 2000;

    public OperatorRecordDraft {
        Checks.notNull(action, "action");
        Checks.notNull(operationId, "operationId");
        Checks.notNull(actor, "actor");
        Checks.notNull(target, "target");
        Checks.notNull(requestDigest, "requestDigest");
        Checks.text(outcome, "outcome", MAX_OUTCOME_LENGTH);
        Checks.notNull(recordedAt, "recordedAt");
    }
}
