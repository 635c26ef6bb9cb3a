package io.durablebatch.repository.retention;

import java.time.Instant;
import java.util.Optional;

import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.OperationId;
import io.durablebatch.execution.RequestDigest;

/**
 * The append-only record of one retention operation, as stored. It outlives the purge of what it
 * describes.
 */
public record RetentionRecord(RetentionAction action, OperationId operationId, ActorRef actor,
        Optional<JobInstanceId> jobInstanceId, RequestDigest requestDigest, String outcome, Instant recordedAt) {

    /** Whether {@code draft} is this same request: same action, operation id and request digest. */
    public boolean records(RetentionRecordDraft draft) {
        return action == draft.action() && operationId.equals(draft.operationId())
                && requestDigest.equals(draft.requestDigest());
    }
}
