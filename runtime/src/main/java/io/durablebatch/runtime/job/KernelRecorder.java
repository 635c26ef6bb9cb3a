package io.durablebatch.runtime.job;

import io.quarkus.arc.Arc;
import io.quarkus.runtime.annotations.Recorder;

/** The kernel's startup, in the order the build defines: after the schema, before the application's startup. */
@Recorder
public class KernelRecorder {

    /** Registers the job definitions, then recovers what previous runs of this node left, if enabled. */
    public void start() {
        Arc.container().instance(JobRegistry.class).get().register();
        Arc.container().instance(StartupRecovery.class).get().recoverAtStartup();
    }
}
