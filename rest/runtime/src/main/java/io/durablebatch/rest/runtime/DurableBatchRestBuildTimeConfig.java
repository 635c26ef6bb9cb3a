package io.durablebatch.rest.runtime;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Where the operator REST API answers. Fixed at build time: Quarkus REST and SmallRye OpenAPI read
 * the paths of the endpoints while the application is built. Readable at run time too, for the
 * {@code Location} of an execution the API launched.
 */
@ConfigMapping(prefix = "quarkus.durable-batch.rest")
@ConfigRoot(phase = ConfigPhase.BUILD_AND_RUN_TIME_FIXED)
public interface DurableBatchRestBuildTimeConfig {

    /** The default of {@link #rootPath()}. */
    String DEFAULT_ROOT_PATH = "/batch";

    /**
     * The path every endpoint of the API is under, e.g. {@code /ops/batch} for
     * {@code /ops/batch/executions}. It starts with {@code /} and does not end with one; it is
     * relative to {@code quarkus.http.root-path} and {@code quarkus.rest.path} like the application's
     * own resources.
     */
    @WithDefault(DEFAULT_ROOT_PATH)
    String rootPath();
}
