package io.durablebatch.runtime.job;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Singleton;

import io.durablebatch.execution.StepExecutionId;

/**
 * The step attempts this process runs right now (flow steps, partition parents, local and remote
 * partition workers): their leases are renewed together, in one statement per renewal, so a long
 * chunk, a tasklet or a parent waiting for its partitions never looks dead while its process lives.
 */
@Singleton
public class StepLeases {

    private final Set<StepExecutionId> held = ConcurrentHashMap.newKeySet();

    void hold(StepExecutionId step) {
        held.add(step);
    }

    void release(StepExecutionId step) {
        held.remove(step);
    }

    Set<StepExecutionId> held() {
        return Set.copyOf(held);
    }
}
