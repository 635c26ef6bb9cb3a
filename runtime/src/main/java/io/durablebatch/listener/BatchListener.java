package io.durablebatch.listener;

import io.durablebatch.execution.JobName;

/**
 * What every listener shares: which jobs it listens to. A CDI bean implementing a listener
 * interface applies to every job whose name {@link #appliesTo} accepts; a listener declared on a
 * job or step applies there, and {@code appliesTo} is not asked.
 * <p>
 * A bean implementing several listener interfaces is one listener of each kind. CDI beans are
 * called in ascending order of their {@code @jakarta.annotation.Priority} (none counts as 0), then
 * the job's listeners, then the step's, in declaration order; "after" and error callbacks in the
 * reverse order. Listeners of a partitioned step's workers run on the workers' threads, so a
 * listener that applies to several steps or partitions must be safe to call concurrently.
 */
public interface BatchListener {

    /**
     * Whether this listener, as a CDI bean, listens to the executions of {@code job}; asked as each
     * execution and each step attempt starts. By default it listens to every job.
     */
    default boolean appliesTo(JobName job) {
        return true;
    }
}
