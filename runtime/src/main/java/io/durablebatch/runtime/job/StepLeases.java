package io.durablebatch.runtime.job;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.durablebatch.execution.StepExecutionId;

/**
 * The step attempts this process runs right now (flow steps, partition parents, local and remote
 * partition workers): their leases are renewed together, in one statement per renewal, so a long
 * chunk, a tasklet or a parent waiting for its partitions never looks dead while its process lives.
 * A step attempt that two renewals in a row found no longer active while this process still runs it
 * and has not seen it end (its partition was released to another worker, its execution recovered) is
 * told to stop: its next commit would be refused anyway. Two renewals, because a step's end commits
 * a moment before its attempt learns of it.
 */
@Singleton
public class StepLeases {

    private static final Logger LOG = Logger.getLogger(StepLeases.class);

    private final Map<StepExecutionId, StepAttempt> held = new ConcurrentHashMap<>();
    private final Set<StepExecutionId> missedOnce = ConcurrentHashMap.newKeySet();

    void hold(StepExecutionId step, StepAttempt attempt) {
        held.put(step, attempt);
    }

    void release(StepExecutionId step) {
        held.remove(step);
        missedOnce.remove(step);
    }

    Set<StepExecutionId> held() {
        return Set.copyOf(held.keySet());
    }

    /** What a renewal of {@code renewed} found still active: those held and missing twice are told to stop. */
    void renewed(Set<StepExecutionId> renewed, Set<StepExecutionId> active) {
        for (StepExecutionId step : renewed) {
            if (active.contains(step)) {
                missedOnce.remove(step);
                continue;
            }
            StepAttempt attempt = held.get(step);
            if (attempt == null || !attempt.snapshot().status().isActive()) {
                missedOnce.remove(step);
            } else if (!missedOnce.add(step)) {
                LOG.warnf("Step execution %s is no longer active, though this process runs it (released to another "
                        + "worker, or recovered): it stops at its next chunk boundary", step);
                attempt.control().requestStop();
            }
        }
    }
}
