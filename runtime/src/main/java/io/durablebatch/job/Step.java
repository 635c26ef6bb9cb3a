package io.durablebatch.job;

import io.durablebatch.execution.StepName;

/** A node that runs work and records step executions. */
public sealed interface Step extends Node permits TaskletStep, ChunkStep, PartitionedStep {

    StepSettings settings();

    default StepName name() {
        return settings().name();
    }

    @Override
    default String id() {
        return settings().nodeId();
    }
}
