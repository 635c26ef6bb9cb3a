package io.durablebatch.runtime.job;

/**
 * Whether a running execution should stop at its next chunk boundary: the step runners ask at every
 * chunk commit and between steps. Raised by a stop request or by the shutdown of this process.
 */
interface StopSignal {

    boolean stopRequested();
}
