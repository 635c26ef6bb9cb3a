package io.durablebatch.listener;

/**
 * Called when an attempt's flow has ended, before its end is recorded: the last moment to set the
 * exit status the end records ({@code ending.context().setExitStatus(..)}), as Spring Batch's
 * {@code afterJob} and Jakarta Batch's {@code afterJob} may. It runs outside any transaction, after
 * the last step's step listeners, once per attempt whose end this process records (a {@code beforeJob}
 * that threw included). One that throws fails the execution with that exception (a completed or
 * stopped flow ends FAILED); the others are still called. Called in reverse order, as "after"
 * callbacks are.
 * <p>
 * A job with such a listener records its end in a transaction of its own, after the last step's;
 * without one, the end commits with the last step's completion when nothing else of that step runs
 * after it. Prefer setting the exit status from a step ({@code context.job().setExitStatus(..)}) where
 * that is enough.
 */
public interface JobEndListener extends BatchListener {

    /** The flow ended as {@code ending} says; its end is recorded after this call. */
    void beforeJobEnd(JobEnding ending);
}
