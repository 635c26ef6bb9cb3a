package io.durablebatch.rest.runtime;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.durablebatch.execution.ExecutionParameters;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.ReasonCode;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.control.OperatorAction;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * The operator's actions, through {@link JobOperator}: it answers a retried operation id from its
 * audit record, so a request repeated with the same {@code Idempotency-Key} is never applied twice.
 * {@code If-Match} is checked against the execution's version first, except for a retry: the
 * recorded request moved the version, and its answer must not depend on that.
 */
@ApplicationScoped
public class ExecutionActions {

    private final JobOperator operator;
    private final JobRepository repository;

    ExecutionActions(JobOperator operator, JobRepository repository) {
        this.operator = operator;
        this.repository = repository;
    }

    JobExecution start(String jobName, JobParameters parameters, OperatorCall call) {
        return execution(operator.start(jobName, parameters, call));
    }

    JobExecution restart(JobExecutionId id, Optional<ExecutionParameters> nonIdentifying, Optional<String> ifMatch,
            OperatorCall call) {
        requireVersion(OperatorAction.RESTART, id, ifMatch, call);
        return execution(nonIdentifying.isPresent() ? operator.restart(id, nonIdentifying.get(), call)
                : operator.restart(id, call));
    }

    JobExecution stop(JobExecutionId id, Optional<String> ifMatch, OperatorCall call) {
        requireVersion(OperatorAction.STOP, id, ifMatch, call);
        operator.stop(id, call);
        return execution(id);
    }

    JobExecution abandon(JobExecutionId id, Optional<String> ifMatch, OperatorCall call) {
        requireVersion(OperatorAction.ABANDON, id, ifMatch, call);
        return operator.abandon(id, call);
    }

    /**
     * Recovery compares the version itself, in the transaction of its effect, so If-Match is its
     * {@code observedVersion} and is required: recovering without having looked is not offered.
     */
    RecoveryView recover(JobExecutionId id, Optional<String> ifMatch, RecoverRequest request, OperatorCall call) {
        String tag = ifMatch.orElseThrow(() -> new ApiException(ApiError.PRECONDITION_REQUIRED,
                "recovery needs If-Match with the version of the execution it decides on (its ETag)",
                Optional.of(EntityTags.IF_MATCH)));
        try {
            return RecoveryView.of(operator.recover(id, EntityTags.version(tag), request.resolution(),
                    ReasonCode.of(request.reason()), request.ownerDeclaredDead(), call));
        } catch (RepositoryException e) {
            if (e.error() == RepositoryError.VERSION_CONFLICT) {
                throw new StaleVersionException(id.value(), tag, execution(id).version().value());
            }
            throw e;
        }
    }

    private void requireVersion(OperatorAction action, JobExecutionId id, Optional<String> ifMatch, OperatorCall call) {
        if (ifMatch.isEmpty()) {
            return;
        }
        QuarkusTransaction.requiringNew().run(() -> {
            if (repository.findOperatorRequest(action, call.actor(), call.operationId()).isPresent()) {
                return;
            }
            JobExecution current = Existing.execution(repository, id);
            if (!EntityTags.matches(ifMatch.get(), current.version())) {
                throw new StaleVersionException(id.value(), ifMatch.get(), current.version().value());
            }
        });
    }

    JobExecution execution(JobExecutionId id) {
        return QuarkusTransaction.requiringNew().call(() -> Existing.execution(repository, id));
    }
}
