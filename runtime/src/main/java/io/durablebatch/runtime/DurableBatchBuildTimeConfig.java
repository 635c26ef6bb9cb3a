package io.durablebatch.runtime;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Durable Batch build-time configuration. */
@ConfigMapping(prefix = "quarkus.durable-batch")
@ConfigRoot(phase = ConfigPhase.BUILD_TIME)
public interface DurableBatchBuildTimeConfig {

    /** Health integration. */
    Health health();

    interface Health {

        /**
         * Whether a readiness check is published when the application has
         * {@code quarkus-smallrye-health}: the repository is reachable and its schema is at the
         * version this extension expects.
         */
        @WithDefault("true")
        boolean enabled();
    }
}
