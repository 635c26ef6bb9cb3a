package io.durablebatch.rest.runtime;

import io.durablebatch.repository.RecoveryResolution;

/**
 * A recovery: how to resolve the execution, the reason recorded with it, and whether the operator
 * declares its owner dead (then its lease is not waited for).
 */
public record RecoverRequest(RecoveryResolution resolution, String reason, boolean ownerDeclaredDead) {
}
