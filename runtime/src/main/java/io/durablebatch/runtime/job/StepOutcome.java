package io.durablebatch.runtime.job;

import java.util.Optional;

import io.durablebatch.execution.ExecutionFailure;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.StepExecution;

/**
 * How a flow node ended: its status and exit status, and whether the outcome was reused from an
 * earlier execution of the instance (a completed step that a restart does not run again), and the
 * step execution that recorded it.
 */
record StepOutcome(ExecutionStatus status, ExitStatus exitStatus, Optional<ExecutionFailure> failure, boolean reused,
        StepExecution execution) {

    static StepOutcome of(StepExecution step) {
        return new StepOutcome(step.status(), step.exitStatus(), step.failure(), false, step);
    }

    static StepOutcome reusedFrom(StepExecution step) {
        return new StepOutcome(step.status(), step.exitStatus(), step.failure(), true, step);
    }
}
