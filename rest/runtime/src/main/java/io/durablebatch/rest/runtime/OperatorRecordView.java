package io.durablebatch.rest.runtime;

import java.time.Instant;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.durablebatch.repository.control.OperatorRecord;

/** One operator audit record: what was asked, by whom, of which instance and execution, and the outcome. */
@JsonInclude(JsonInclude.Include.NON_ABSENT)
public record OperatorRecordView(String action, String operationId, String actor, long jobInstanceId,
        Optional<Long> jobExecutionId, String outcome, Instant recordedAt) {

    static OperatorRecordView of(OperatorRecord record) {
        return new OperatorRecordView(record.action().name(), record.operationId().value(), record.actor().value(),
                record.target().jobInstanceId().value(), record.target().jobExecutionId().map(id -> id.value()),
                record.outcome(), record.recordedAt());
    }
}
