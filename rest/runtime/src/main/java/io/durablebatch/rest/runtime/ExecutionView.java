package io.durablebatch.rest.runtime;

import java.time.Instant;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.durablebatch.execution.ExecutionFailure;
import io.durablebatch.execution.JobExecution;

/**
 * One job execution as the API shows it; {@code version} is also its {@code ETag}, and
 * {@code parameters} are its non-identifying parameters (the identifying ones are its instance's).
 */
@JsonInclude(JsonInclude.Include.NON_ABSENT)
public record ExecutionView(long id, long jobInstanceId, String jobName, int attempt, String status, String exitCode,
        String exitDescription, Optional<FailureView> failure, Optional<DefinitionView> definition,
        ObjectNode parameters, Instant createdAt, Optional<Instant> startedAt, Optional<Instant> endedAt,
        Instant lastUpdated, long version) {

    /** Why an execution or step failed: the exception's type and message. */
    public record FailureView(String type, String message) {

        static Optional<FailureView> of(Optional<ExecutionFailure> failure) {
            return failure.map(f -> new FailureView(f.type(), f.message()));
        }
    }

    /** The job definition an execution runs: its name, revision and plan fingerprint. */
    public record DefinitionView(String jobName, String revision, String fingerprint) {
    }

    static ExecutionView of(JobExecution execution) {
        return new ExecutionView(execution.id().value(), execution.jobInstanceId().value(),
                execution.jobName().value(), execution.attempt(),
                execution.status().name(), execution.exitStatus().code(), execution.exitStatus().description(),
                FailureView.of(execution.failure()),
                execution.definition().map(d -> new DefinitionView(d.jobName().value(), d.revision(),
                        d.fingerprint().hex())),
                ParameterJson.write(execution.parameters().values()), execution.createdAt(), execution.startedAt(),
                execution.endedAt(), execution.lastUpdated(), execution.version().value());
    }
}
