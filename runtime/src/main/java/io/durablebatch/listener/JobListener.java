package io.durablebatch.listener;

/**
 * Called around each attempt to run a job (a restart is a new attempt: it calls both again). Both
 * run outside any transaction. {@code beforeJob} runs once the execution is recorded STARTED; if
 * it throws, no step runs and the execution ends FAILED with that exception. {@code afterJob} runs
 * once the end is recorded (committed), so it sees the final status; an exception it throws is
 * logged and changes nothing. An attempt whose process dies before its end is recorded gets no
 * {@code afterJob} there: its end is recorded by the node that recovers it. A process that lost
 * its execution to recovery (its lease ran out) calls {@code afterJob} with the end recorded there.
 */
public interface JobListener extends BatchListener {

    /** Before the first step of the attempt, after it was recorded STARTED. */
    default void beforeJob(JobEvent job) {
    }

    /** After the attempt's end was recorded; {@code job.execution()} is that record. */
    default void afterJob(JobEvent job) {
    }
}
