package io.durablebatch.runtime.job;

import org.eclipse.microprofile.config.ConfigProvider;

import io.quarkus.arc.Arc;
import io.quarkus.runtime.annotations.Recorder;

/** The kernel's startup, in the order the build defines: after the schema, before the application's startup. */
@Recorder
public class KernelRecorder {

    /**
     * Registers the job definitions, then recovers what previous runs of this node left, if enabled;
     * nothing in an init task ({@code quarkus.init-and-exit}), which only migrates and exits.
     */
    public void start() {
        if (ConfigProvider.getConfig().getOptionalValue("quarkus.init-and-exit", Boolean.class).orElse(false)) {
            return;
        }
        Arc.container().instance(JobRegistry.class).get().register();
        Arc.container().instance(StartupRecovery.class).get().recoverAtStartup();
    }
}
