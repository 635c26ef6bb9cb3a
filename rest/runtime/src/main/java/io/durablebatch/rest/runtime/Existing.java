package io.durablebatch.rest.runtime;

import java.util.Optional;

import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstance;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;

/**
 * The records an endpoint names by id, and the refusal, with its own not-found code, when one does
 * not exist: written once for the resources and the actions that share them. Each joins the
 * caller's transaction.
 */
final class Existing {

    private Existing() {
    }

    static JobExecution execution(JobRepository repository, JobExecutionId id) {
        return repository.getJobExecution(id).orElseThrow(() -> new RepositoryException(
                RepositoryError.JOB_EXECUTION_NOT_FOUND, "no job execution " + id));
    }

    static JobInstance instance(JobRepository repository, JobInstanceId id) {
        return repository.getJobInstance(id).orElseThrow(() -> new RepositoryException(
                RepositoryError.JOB_INSTANCE_NOT_FOUND, "no job instance " + id));
    }

    /** The refusal of an instance that has no retention hold. */
    static ApiException noHold(JobInstanceId id) {
        return new ApiException(ApiError.HOLD_NOT_FOUND, "job instance " + id + " has no retention hold",
                Optional.empty());
    }
}
