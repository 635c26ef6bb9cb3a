package io.durablebatch.repository;

import io.durablebatch.execution.JobExecution;

/**
 * The outcome of {@link JobRepository#recoverJobExecution}: the decision and the execution as it is
 * now. {@code replayed} is true when the same operation had already been applied and this call
 * only read its record.
 */
public record RecoveryResult(RecoveryDecision decision, JobExecution execution, boolean replayed) {
}
