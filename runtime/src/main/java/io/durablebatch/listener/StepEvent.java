package io.durablebatch.listener;

import io.durablebatch.Checks;
import io.durablebatch.context.StepContext;
import io.durablebatch.execution.StepExecution;

/**
 * One step attempt, as a {@link StepListener} sees it: its context (the job, its parameters, the
 * partition of a partition worker) and the step execution's snapshot (STARTED before the step; as
 * recorded at its end after it).
 */
public record StepEvent(StepContext context, StepExecution execution) {

    public StepEvent {
        Checks.notNull(context, "context");
        Checks.notNull(execution, "execution");
    }
}
