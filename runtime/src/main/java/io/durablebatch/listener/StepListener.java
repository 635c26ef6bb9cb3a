package io.durablebatch.listener;

/**
 * Called around each step attempt, outside any transaction: {@code beforeStep} once the attempt is
 * recorded STARTED and before its reader or tasklet is opened; if it throws, the step ends FAILED
 * with that exception (and its reader is never opened). {@code afterStep} once the step's end is
 * recorded, with that record; an exception it throws is logged and changes nothing. A step a restart
 * does not run again (it completed in an earlier execution) calls neither. Each worker of a
 * partitioned step is a step attempt of its own: listeners declared on the worker step, on the job
 * or as CDI beans are called for it; those declared on the partitioned step, for the parent only.
 */
public interface StepListener extends BatchListener {

    /** Before the step's work, after it was recorded STARTED. */
    default void beforeStep(StepEvent step) {
    }

    /** After the step's end was recorded; {@code step.execution()} is that record. */
    default void afterStep(StepEvent step) {
    }
}
