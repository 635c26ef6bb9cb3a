package io.durablebatch.runtime.job;

import java.util.Optional;

import io.durablebatch.job.Step;
import io.durablebatch.repository.JobExecution;
import io.durablebatch.repository.StepExecution;

/**
 * The durable history of flow nodes: the latest attempt of a node across the job instance, and the
 * start of a new one. Both run inside the caller's transaction.
 */
interface StepHistory {

    /** The latest attempt of {@code step}'s node in the instance of {@code execution}, this execution included. */
    Optional<StepExecution> latestAttempt(JobExecution execution, Step step);

    /** Records a new STARTING attempt of {@code step}'s node in {@code execution}. */
    StepExecution createAttempt(JobExecution execution, Step step);
}
