package io.durablebatch.deployment;

import io.durablebatch.runtime.DurableBatchBuildTimeConfig;
import io.durablebatch.runtime.health.LeaseHealthCheck;
import io.durablebatch.runtime.health.RepositoryHealthCheck;
import io.quarkus.deployment.Capabilities;
import io.quarkus.deployment.Capability;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.smallrye.health.deployment.spi.HealthBuildItem;

/** Publishes the repository's readiness check, and the kernel's leases', when the application has SmallRye Health. */
class DurableBatchHealthProcessor {

    @BuildStep
    void readinessCheck(Capabilities capabilities, DurableBatchBuildTimeConfig config,
            BuildProducer<HealthBuildItem> healthChecks) {
        if (capabilities.isPresent(Capability.SMALLRYE_HEALTH)) {
            healthChecks.produce(new HealthBuildItem(RepositoryHealthCheck.class.getName(), config.health().enabled()));
            if (config.kernel().enabled()) {
                healthChecks.produce(new HealthBuildItem(LeaseHealthCheck.class.getName(), config.health().enabled()));
            }
        }
    }
}
