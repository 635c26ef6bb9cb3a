package io.durablebatch.listener;

import io.durablebatch.Checks;
import io.durablebatch.context.StepContext;
import io.durablebatch.execution.StepCounters;

/**
 * One chunk of a step attempt, as a {@link ChunkListener} sees it: the step's context, the
 * chunk's number in the attempt (from 1; a tasklet step's calls are its chunks), the items it read
 * ({@code 0} for a tasklet call) and the counters the attempt had committed when the callback ran:
 * before the chunk in {@code beforeChunk} and {@code onChunkError}, with it in {@code afterChunk}.
 */
public record ChunkEvent(StepContext step, long number, int items, StepCounters committed) {

    public ChunkEvent {
        Checks.notNull(step, "step");
        Checks.positive(number, "chunk number");
        Checks.notNegative(items, "items");
        Checks.notNull(committed, "committed");
    }
}
