package io.durablebatch.rest.runtime;

import java.time.Instant;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecution;

/** One step attempt of an execution, with its counters; {@code checkpointBytes} is the size of its checkpoint. */
@JsonInclude(JsonInclude.Include.NON_ABSENT)
public record StepView(long id, String stepName, String status, String exitCode, String exitDescription,
        Optional<ExecutionView.FailureView> failure, Optional<Integer> checkpointBytes, StepCounters counters,
        Instant createdAt, Optional<Instant> startedAt, Optional<Instant> endedAt, Instant lastUpdated, long version) {

    static StepView of(StepExecution step) {
        return new StepView(step.id().value(), step.stepName().value(), step.status().name(),
                step.exitStatus().code(), step.exitStatus().description(), ExecutionView.FailureView.of(step.failure()),
                step.checkpoint().map(c -> c.length()), step.counters(), step.createdAt(), step.startedAt(),
                step.endedAt(), step.lastUpdated(), step.version().value());
    }
}
