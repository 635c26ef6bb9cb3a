/**
 * The job DSL: a {@link io.durablebatch.job.Job} of steps ({@link io.durablebatch.job.Steps}), flows,
 * decisions, splits and partitions, checked when it is built. Launching is in
 * {@code io.durablebatch.operator}; what running code is given, in {@code io.durablebatch.context}.
 */
package io.durablebatch.job;
