package io.durablebatch.runtime.job;

/**
 * Whether a running execution should stop at its next chunk boundary: the step runners ask at every
 * chunk commit and between steps. Raised by a durable stop request (seen at a chunk commit or by the control poller) or by
 * the shutdown of this process.
 */
interface StopSignal {

    boolean stopRequested();

    /** Raises the signal: the execution stops at its next chunk boundary. */
    void requestStop();
}
