package io.durablebatch.rest.runtime;

import java.time.Instant;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.durablebatch.repository.retention.RetentionRecord;

/**
 * The answer to a hold or purge request: its retention audit record. A retried request (same
 * {@code Idempotency-Key}) is answered from the same record, so both answers are equal.
 */
@JsonInclude(JsonInclude.Include.NON_ABSENT)
public record RetentionOutcomeView(String action, String operationId, String actor, Optional<Long> jobInstanceId,
        String outcome, Instant recordedAt) {

    static RetentionOutcomeView of(RetentionRecord record) {
        return new RetentionOutcomeView(record.action().name(), record.operationId().value(), record.actor().value(),
                record.jobInstanceId().map(id -> id.value()), record.outcome(), record.recordedAt());
    }
}
