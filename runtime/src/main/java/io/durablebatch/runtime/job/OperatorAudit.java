package io.durablebatch.runtime.job;

import java.time.Instant;
import java.util.Optional;

import jakarta.inject.Singleton;

import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.RequestDigest;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.repository.RecoveryRequest;
import io.durablebatch.repository.RecoveryResult;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.control.OperatorAction;
import io.durablebatch.repository.control.OperatorRecord;
import io.durablebatch.repository.control.OperatorRecordDraft;
import io.durablebatch.repository.control.OperatorTarget;
import io.durablebatch.repository.spi.KernelRepository;

/**
 * The operator audit of the kernel's requests, written in the transaction of their effect. A
 * request is identified by its action and operation id; its canonical text (e.g.
 * {@code stop|execution=42}) is digested, so a retried request is answered from its record and a
 * reused operation id with another request is refused with {@code OPERATION_CONFLICT}.
 */
@Singleton
public class OperatorAudit {

    private final KernelRepository repository;

    OperatorAudit(KernelRepository repository) {
        this.repository = repository;
    }

    /** The record of this very request, if it was applied already. Joins the caller's transaction. */
    Optional<OperatorRecord> recorded(OperatorAction action, OperatorCall call, String canonicalRequest) {
        Optional<OperatorRecord> record = repository.findOperatorRequest(action, call.actor(), call.operationId());
        RequestDigest digest = RequestDigest.sha256(canonicalRequest);
        if (record.isPresent() && !record.get().requestDigest().equals(digest)) {
            throw new RepositoryException(RepositoryError.OPERATION_CONFLICT, "operation id " + call.operationId()
                    + " was used for another " + action + " request than '" + canonicalRequest + "'");
        }
        return record;
    }

    /**
     * Recovers an execution and appends the record of the request, in the caller's transaction:
     * whoever asks (an operator, startup recovery, the lease sweeper), a recovery is one audited
     * request, and the same request replayed stays one record.
     */
    RecoveryResult recover(JobExecutionId id, RecoveryRequest request, String outcome) {
        RecoveryResult result = repository.recoverJobExecution(id, request);
        append(OperatorAction.RECOVER, new OperatorCall(request.operationId(), request.actor()), "recover|execution="
                + id + "|version=" + request.observedVersion() + "|resolution=" + request.resolution() + "|reason="
                + request.reason() + (request.ownerDeclaredDead() ? "|owner=dead" : ""), result.execution(), outcome);
        return result;
    }

    /** Appends the record of an applied request. Joins the caller's transaction. */
    OperatorRecord append(OperatorAction action, OperatorCall call, String canonicalRequest, JobExecution target,
            String outcome) {
        return repository.appendOperatorRequest(new OperatorRecordDraft(action, call.operationId(), call.actor(),
                OperatorTarget.execution(target.jobInstanceId(), target.id()), RequestDigest.sha256(canonicalRequest),
                outcome, Instant.now()));
    }
}
