package io.durablebatch.runtime.health;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

import io.durablebatch.runtime.lease.LeaseLiveness;

/**
 * DOWN while this node holds leases it could not renew for longer than the lease: its steps do not
 * commit, and another node may be recovering its executions. A readiness check, not a liveness one:
 * a restart cannot bring the database back, and it would throw away the work this node resumes (under
 * the same owner token) the moment a renewal goes through again. Registered only when the
 * application has SmallRye Health and the kernel.
 */
@Readiness
public class LeaseHealthCheck implements HealthCheck {

    static final String NAME = "Durable Batch leases";

    private final LeaseLiveness liveness;

    LeaseHealthCheck(LeaseLiveness liveness) {
        this.liveness = liveness;
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named(NAME).status(!liveness.lost())
                .withData("lease", liveness.lease().toString())
                .withData("lastConfirmedRenewalMillisAgo", liveness.sinceConfirmed().toMillis())
                .withData("failedRenewalsInARow", liveness.failedRenewals())
                .build();
    }
}
