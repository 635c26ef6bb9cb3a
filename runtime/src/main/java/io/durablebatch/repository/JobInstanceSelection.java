package io.durablebatch.repository;

import io.durablebatch.execution.JobInstance;

/** The one instance for a key, and whether this call created it. */
public record JobInstanceSelection(JobInstance instance, boolean created) {
}
