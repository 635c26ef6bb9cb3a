package io.durablebatch.repository;

import java.time.Instant;
import java.util.Optional;

import io.durablebatch.Checks;
import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.ExecutionFailure;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.StepCounters;

/**
 * One lifecycle transition, applied by compare-and-swap: the target status, when it happened, and
 * optionally an exit status and a failure; for steps also a checkpoint and counters.
 * <p>
 * When the target ends the execution and no exit status is given, the exit code becomes the
 * status name. A step transition whose target is {@code STARTED} on a {@code STARTED} step
 * records progress.
 */
public record LifecycleTransition(ExecutionStatus target, Instant at, Optional<ExitStatus> exitStatus,
        Optional<ExecutionFailure> failure, Optional<Checkpoint> checkpoint, Optional<StepCounters> counters) {

    public LifecycleTransition {
        Checks.notNull(target, "transition.target");
        Checks.notNull(at, "transition.at");
        Checks.notNull(exitStatus, "transition.exitStatus");
        Checks.notNull(failure, "transition.failure");
        Checks.notNull(checkpoint, "transition.checkpoint");
        Checks.notNull(counters, "transition.counters");
    }

    public static LifecycleTransition to(ExecutionStatus target, Instant at) {
        return new LifecycleTransition(target, at, Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty());
    }

    /** A step's progress: it stays STARTED and records its checkpoint and counters. */
    public static LifecycleTransition progress(Instant at, Checkpoint checkpoint, StepCounters counters) {
        return to(ExecutionStatus.STARTED, at).withCheckpoint(checkpoint).withCounters(counters);
    }

    public LifecycleTransition withExitStatus(ExitStatus exitStatus) {
        return new LifecycleTransition(target, at, Optional.of(Checks.notNull(exitStatus, "transition.exitStatus")),
                failure, checkpoint, counters);
    }

    public LifecycleTransition withFailure(ExecutionFailure failure) {
        return new LifecycleTransition(target, at, exitStatus, Optional.of(Checks.notNull(failure, "transition.failure")),
                checkpoint, counters);
    }

    public LifecycleTransition withCheckpoint(Checkpoint checkpoint) {
        return new LifecycleTransition(target, at, exitStatus, failure,
                Optional.of(Checks.notNull(checkpoint, "transition.checkpoint")), counters);
    }

    public LifecycleTransition withCounters(StepCounters counters) {
        return new LifecycleTransition(target, at, exitStatus, failure, checkpoint,
                Optional.of(Checks.notNull(counters, "transition.counters")));
    }

    /** Whether this transition carries step-only data (checkpoint or counters). */
    public boolean carriesStepProgress() {
        return checkpoint.isPresent() || counters.isPresent();
    }

    /** The exit status to record: the explicit one, else the default for an ending target, else none. */
    public Optional<ExitStatus> effectiveExitStatus() {
        if (exitStatus.isPresent() || target.isActive()) {
            return exitStatus;
        }
        return Optional.of(ExitStatus.defaultFor(target));
    }
}
