package io.durablebatch.repository.control;

import java.time.Instant;
import java.util.Optional;

import io.durablebatch.Checks;
import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.JobExecutionId;

/**
 * Who runs an execution and whether it was asked to stop, as stored: the owner's token and claim,
 * the stop request, and the lease its owner renews. {@code leaseLive} is judged on the database
 * clock when the snapshot was read: a live lease means the owner showed a sign of life within the
 * lease duration.
 */
public record ExecutionOwnership(JobExecutionId jobExecutionId, Optional<OwnerToken> owner,
        Optional<Instant> ownerClaimedAt, Optional<Instant> stopRequestedAt, Optional<ActorRef> stopRequestedBy,
        Optional<Instant> leaseExpiresAt, boolean leaseLive) {

    public ExecutionOwnership {
        Checks.notNull(jobExecutionId, "jobExecutionId");
        Checks.notNull(owner, "owner");
        Checks.notNull(ownerClaimedAt, "ownerClaimedAt");
        Checks.notNull(stopRequestedAt, "stopRequestedAt");
        Checks.notNull(stopRequestedBy, "stopRequestedBy");
        Checks.notNull(leaseExpiresAt, "leaseExpiresAt");
    }

    public boolean stopRequested() {
        return stopRequestedAt.isPresent();
    }
}
