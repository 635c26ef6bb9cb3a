package io.durablebatch.repository;

/**
 * What {@link JobRepository#recordStepProgress} recorded: the step as it is now, and whether a stop
 * was requested for its job execution (the owner then stops at this chunk boundary).
 */
public record StepProgress(StepExecution step, boolean stopRequested) {
}
