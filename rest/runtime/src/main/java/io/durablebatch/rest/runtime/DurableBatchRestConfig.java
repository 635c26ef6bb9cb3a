package io.durablebatch.rest.runtime;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * The operator REST API (quarkus-durable-batch-rest). Its endpoints are under
 * {@code quarkus.durable-batch.rest.root-path}; every one needs an authenticated caller with one of the three roles below.
 */
@ConfigMapping(prefix = "quarkus.durable-batch.rest")
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
public interface DurableBatchRestConfig {

    /** The role names the endpoints allow: in effect viewer, operator and admin, each allowed what the one before is. */
    Roles roles();

    /** The three roles of the API. */
    interface Roles {

        /** The role that reads: definitions, instances, executions, audit, holds, the purge survey. */
        @WithDefault("batch-viewer")
        String viewer();

        /** The role that also starts, stops and restarts executions. */
        @WithDefault("batch-operator")
        String operator();

        /** The role that also recovers and abandons executions, places and releases holds, and purges. */
        @WithDefault("batch-admin")
        String admin();
    }
}
