package io.durablebatch.job;

import io.durablebatch.execution.StepName;

/** A node that runs work and records step executions. */
public sealed interface Step extends Node permits TaskletStep, ChunkStep, PartitionedStep {

    StepSettings settings();

    /** This step started at most {@code startLimit} times per job instance (0: no limit). */
    Step withStartLimit(int startLimit);

    /** This step run again on a restart even when it completed before. */
    Step withAllowStartIfComplete(boolean allowStartIfComplete);

    default StepName name() {
        return settings().name();
    }

    @Override
    default String id() {
        return settings().nodeId();
    }
}
