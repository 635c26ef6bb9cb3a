package io.durablebatch.repository.control;

import io.durablebatch.Checks;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.JobExecutionId;

/**
 * What the owner of an execution learns when it observes control: whether to go on, and the
 * execution's status and version as they are now. A stop request moves the version, so the owner
 * continues its compare-and-swap transitions from {@code version}.
 */
public record ExecutionControl(JobExecutionId jobExecutionId, Signal signal, ExecutionStatus status,
        ExecutionVersion version) {

    /** The owner's instruction. */
    public enum Signal {
        /** No stop was requested: carry on. */
        CONTINUE,
        /**
         * A stop was requested: finish the current chunk and end the execution STOPPED. A STARTED
         * execution is STOPPING already; a STARTING one goes straight to STOPPED.
         */
        STOP_REQUESTED
    }

    public ExecutionControl {
        Checks.notNull(jobExecutionId, "jobExecutionId");
        Checks.notNull(signal, "signal");
        Checks.notNull(status, "status");
        Checks.notNull(version, "version");
    }

    public boolean stopRequested() {
        return signal == Signal.STOP_REQUESTED;
    }
}
