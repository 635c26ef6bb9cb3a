package io.durablebatch.runtime.job;

/**
 * Whether a running execution should stop at its next chunk boundary: the step runners ask at every
 * chunk commit and between steps.
 */
interface ExecutionControl {

    boolean stopRequested();
}
