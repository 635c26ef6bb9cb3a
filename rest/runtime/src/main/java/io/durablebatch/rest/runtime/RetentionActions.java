package io.durablebatch.rest.runtime;

import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;

import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.ReasonCode;
import io.durablebatch.execution.RequestDigest;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.retention.PurgeCandidate;
import io.durablebatch.repository.retention.PurgeCounts;
import io.durablebatch.repository.retention.PurgePlan;
import io.durablebatch.repository.retention.RetentionAction;
import io.durablebatch.repository.retention.RetentionRecord;
import io.durablebatch.repository.retention.RetentionRecordDraft;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * Holds and purges, each audited in the transaction of its effect. A request whose operation id is
 * recorded already is answered from its record (the same answer, no second effect); one whose
 * operation id was used for another request is refused with {@code OPERATION_CONFLICT}.
 */
@ApplicationScoped
public class RetentionActions {

    private final JobRepository repository;

    RetentionActions(JobRepository repository) {
        this.repository = repository;
    }

    RetentionRecord placeHold(JobInstanceId id, ReasonCode reason, OperatorCall call) {
        return audited(RetentionAction.PLACE_HOLD, call, Optional.of(id), "hold|instance=" + id + "|reason=" + reason,
                () -> {
                    repository.placeInstanceHold(id, call.actor(), reason, Instant.now());
                    return "HELD reason " + reason;
                });
    }

    RetentionRecord releaseHold(JobInstanceId id, OperatorCall call) {
        return audited(RetentionAction.RELEASE_HOLD, call, Optional.of(id), "release|instance=" + id, () -> {
            if (repository.releaseInstanceHold(id).isEmpty()) {
                throw Existing.noHold(id);
            }
            return "RELEASED";
        });
    }

    RetentionRecord purge(PurgePlan plan, OperatorCall call) {
        String request = "purge|" + plan.candidates().stream().map(RetentionActions::canonical)
                .collect(Collectors.joining(","));
        return audited(RetentionAction.PURGE, call, Optional.empty(), request, () -> {
            PurgeCounts counts = repository.applyPurge(plan);
            return "PURGED " + counts.jobInstances() + " instances, " + counts.total() + " rows";
        });
    }

    private static String canonical(PurgeCandidate candidate) {
        return candidate.jobInstanceId() + ":" + candidate.executions() + ":" + candidate.observedVersion();
    }

    private RetentionRecord audited(RetentionAction action, OperatorCall call, Optional<JobInstanceId> instance,
            String canonicalRequest, Supplier<String> effect) {
        RequestDigest digest = RequestDigest.sha256(canonicalRequest);
        return QuarkusTransaction.requiringNew().call(() -> {
            Optional<RetentionRecord> recorded = repository.findRetentionAction(action, call.actor(), call.operationId());
            if (recorded.isPresent()) {
                if (!recorded.get().requestDigest().equals(digest)) {
                    throw new RepositoryException(RepositoryError.OPERATION_CONFLICT, "operation id "
                            + call.operationId() + " was used for another " + action + " request");
                }
                return recorded.get();
            }
            String outcome = effect.get();
            return repository.appendRetentionAction(new RetentionRecordDraft(action, call.operationId(), call.actor(),
                    instance, digest, outcome, Instant.now()));
        });
    }

}
