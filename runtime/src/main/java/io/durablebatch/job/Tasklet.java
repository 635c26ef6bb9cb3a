package io.durablebatch.job;

import io.durablebatch.context.StepContext;

/**
 * The work of a tasklet step. Each call runs in its own JTA transaction, committed together with
 * the step's progress; a tasklet that returns {@link RepeatStatus#CONTINUABLE} is called again, so
 * long work can commit in pieces and be stopped between them.
 */
@FunctionalInterface
public interface Tasklet {

    RepeatStatus execute(StepContext context) throws Exception;
}
