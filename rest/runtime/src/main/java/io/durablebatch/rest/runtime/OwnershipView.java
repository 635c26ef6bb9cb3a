package io.durablebatch.rest.runtime;

import java.time.Instant;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.durablebatch.repository.control.ExecutionOwnership;

/**
 * Who runs an execution: its owner token and claim, the stop request, and the lease its owner
 * renews; {@code leaseLive} is judged on the database clock when it was read.
 */
@JsonInclude(JsonInclude.Include.NON_ABSENT)
public record OwnershipView(Optional<String> owner, Optional<Instant> ownerClaimedAt, Optional<Instant> stopRequestedAt,
        Optional<String> stopRequestedBy, Optional<Instant> leaseExpiresAt, boolean leaseLive) {

    static OwnershipView of(ExecutionOwnership ownership) {
        return new OwnershipView(ownership.owner().map(o -> o.value()), ownership.ownerClaimedAt(),
                ownership.stopRequestedAt(), ownership.stopRequestedBy().map(a -> a.value()), ownership.leaseExpiresAt(),
                ownership.leaseLive());
    }
}
