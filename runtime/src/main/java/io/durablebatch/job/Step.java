package io.durablebatch.job;

import io.durablebatch.execution.StepName;

/** A node that runs work and records step executions. */
public sealed interface Step extends Node permits TaskletStep, ChunkStep, PartitionedStep {

    StepSettings settings();

    /** This step started at most {@code startLimit} times per job instance (0: no limit). */
    Step withStartLimit(int startLimit);

    /** This step run again on a restart even when it completed before. */
    Step withAllowStartIfComplete(boolean allowStartIfComplete);

    /**
     * This step started at most as many times per job instance as {@code startLimit} resolves to in
     * each execution (a number, 0: no limit); the plan records its written form. A literal is
     * {@link #withStartLimit(int)}.
     */
    Step withStartLimit(ParameterizedValue startLimit);

    /**
     * This step run again on a restart even when it completed before, if {@code allowStartIfComplete}
     * resolves to {@code true} in the restart ({@code true} or {@code false}, in any case); the plan
     * records its written form. A literal is {@link #withAllowStartIfComplete(boolean)}.
     */
    Step withAllowStartIfComplete(ParameterizedValue allowStartIfComplete);

    default StepName name() {
        return settings().name();
    }

    @Override
    default String id() {
        return settings().nodeId();
    }
}
