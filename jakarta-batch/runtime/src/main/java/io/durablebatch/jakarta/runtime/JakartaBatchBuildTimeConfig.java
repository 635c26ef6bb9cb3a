package io.durablebatch.jakarta.runtime;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How the build treats the application's job XMLs ({@code META-INF/batch-jobs/*.xml}). */
@ConfigMapping(prefix = "quarkus.durable-batch.jakarta")
@ConfigRoot(phase = ConfigPhase.BUILD_TIME)
public interface JakartaBatchBuildTimeConfig {

    /** What becomes of a job XML that cannot run as written. */
    enum InvalidJobXml {
        /** The build fails, naming file, line and element of every problem. */
        FAIL_BUILD,
        /**
         * The build warns and goes on; starting the job is refused with the same problems. The
         * specification's TCK needs this: some of its tests expect an invalid job to fail at start.
         */
        REFUSE_START
    }

    /** What becomes of a job XML that is not well-formed, breaks the schema or fails validation. */
    @WithDefault("fail-build")
    InvalidJobXml invalidJobXml();
}
