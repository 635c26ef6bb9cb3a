package io.durablebatch.repository.retention;

import java.time.Instant;
import java.util.Optional;

import io.durablebatch.Checks;
import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.OperationId;
import io.durablebatch.execution.RequestDigest;

/**
 * One retention operation to record in the transaction it audits: the action and its operation id
 * (unique together), who asked, the instance for a hold action (a purge spans many, so it names
 * none), the digest of the request in canonical form, a short outcome (e.g. {@code PURGED 1000})
 * and when.
 */
public record RetentionRecordDraft(RetentionAction action, OperationId operationId, ActorRef actor,
        Optional<JobInstanceId> jobInstanceId, RequestDigest requestDigest, String outcome, Instant recordedAt) {

    public static final int MAX_OUTCOME_LENGTH = 2000;

    public RetentionRecordDraft {
        Checks.notNull(action, "action");
        Checks.notNull(operationId, "operationId");
        Checks.notNull(actor, "actor");
        Checks.notNull(jobInstanceId, "jobInstanceId");
        if (action != RetentionAction.PURGE && jobInstanceId.isEmpty()) {
            throw new IllegalArgumentException("jobInstanceId must be present for " + action);
        }
        Checks.notNull(requestDigest, "requestDigest");
        Checks.text(outcome, "outcome", MAX_OUTCOME_LENGTH);
        Checks.notNull(recordedAt, "recordedAt");
    }
}
