package io.durablebatch.deployment;

import java.util.function.BooleanSupplier;

import io.durablebatch.runtime.DurableBatchBuildTimeConfig;

/** Whether the execution kernel is built into the application ({@code quarkus.durable-batch.kernel.enabled}). */
public final class KernelEnabled implements BooleanSupplier {

    private final DurableBatchBuildTimeConfig config;

    public KernelEnabled(DurableBatchBuildTimeConfig config) {
        this.config = config;
    }

    @Override
    public boolean getAsBoolean() {
        return config.kernel().enabled();
    }
}
