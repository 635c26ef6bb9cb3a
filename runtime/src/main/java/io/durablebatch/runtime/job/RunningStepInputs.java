package io.durablebatch.runtime.job;

import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import jakarta.inject.Singleton;

import io.durablebatch.execution.StepExecutionId;

/**
 * The input sizes of the chunk steps that run in this process, for the ones whose reader knows it
 * ({@link io.durablebatch.item.ItemReader#size()}): the one thing about a running step that is not
 * in the repository, and what an ETA needs. A read-only view for the Dev UI; the chunk runner keeps
 * it, one map write when an attempt opens its reader and one when it closes it.
 */
@Singleton
public class RunningStepInputs {

    private final ConcurrentMap<StepExecutionId, Long> sizes = new ConcurrentHashMap<>();

    /** The size of the input of this step attempt, if it runs here and its reader knows it. */
    public OptionalLong size(StepExecutionId step) {
        Long size = sizes.get(step);
        return size == null ? OptionalLong.empty() : OptionalLong.of(size);
    }

    void opened(StepExecutionId step, OptionalLong size) {
        size.ifPresent(known -> sizes.put(step, known));
    }

    void closed(StepExecutionId step) {
        sizes.remove(step);
    }
}
