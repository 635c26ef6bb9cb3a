package io.durablebatch.rest.runtime;

import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.durablebatch.execution.StepCounters;
import io.durablebatch.repository.partition.StepPartition;

/**
 * One partition of a partitioned step: its key (hexadecimal, as keys are bytes), status, worker step
 * execution and counters; {@code inputBytes} is the size of its input.
 */
@JsonInclude(JsonInclude.Include.NON_ABSENT)
public record PartitionView(long id, int ordinal, String key, int inputBytes, String status, Optional<Long> worker,
        String exitCode, StepCounters counters, Optional<Long> restartedFrom, Optional<Long> previousWorker,
        int releaseCount, Instant createdAt, Optional<Instant> assignedAt, Optional<Instant> completedAt, long version) {

    static PartitionView of(StepPartition partition) {
        return new PartitionView(partition.id().value(), partition.ordinal(),
                HexFormat.of().formatHex(partition.entry().key()), partition.entry().input().length,
                partition.status().name(), partition.worker().map(w -> w.value()), partition.exitStatus().code(),
                partition.counters(), partition.restartedFrom().map(p -> p.value()),
                partition.previousWorker().map(w -> w.value()), partition.releaseCount(), partition.createdAt(),
                partition.assignedAt(), partition.completedAt(), partition.version().value());
    }
}
