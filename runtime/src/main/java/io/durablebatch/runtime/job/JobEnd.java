package io.durablebatch.runtime.job;

import java.time.Instant;
import java.util.Optional;

import io.durablebatch.execution.ExecutionFailure;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.repository.LifecycleTransition;

/**
 * How a job execution's flow ended: the status to record, its exit status and the failure, if any.
 * The exit status is {@code declared} when the end transition taken names it: taking it sets the
 * job's exit status; otherwise it is the flow's default, which one the job's context has replaces.
 */
record JobEnd(ExecutionStatus status, ExitStatus exitStatus, Optional<ExecutionFailure> failure, boolean declared) {

    JobEnd(ExecutionStatus status, ExitStatus exitStatus, Optional<ExecutionFailure> failure) {
        this(status, exitStatus, failure, false);
    }

    /** The transition that records this end at {@code at}. */
    LifecycleTransition transition(Instant at) {
        LifecycleTransition transition = LifecycleTransition.to(status, at).withExitStatus(exitStatus);
        return failure.map(transition::withFailure).orElse(transition);
    }

    /** This end with the exit status its transition declares, if it declares one. */
    JobEnd declaring(Optional<ExitStatus> declaredExitStatus) {
        return declaredExitStatus.map(declaredStatus -> new JobEnd(status, declaredStatus, failure, true)).orElse(this);
    }

    /**
     * This end with the exit status the job's context holds: a declared one is set there first (it
     * is set last, when its transition is taken), so what sets it afterwards (a job end listener) wins.
     */
    JobEnd settledBy(JobContextImpl job) {
        if (declared) {
            job.setExitStatus(exitStatus);
        }
        return new JobEnd(status, job.exitStatus().orElse(exitStatus), failure, false);
    }

    /** This end failed by {@code cause} after the flow ended: FAILED, keeping a failure the flow had. */
    JobEnd failedBy(Throwable cause) {
        return status == ExecutionStatus.FAILED ? this
                : new JobEnd(ExecutionStatus.FAILED, ExitStatus.defaultFor(ExecutionStatus.FAILED),
                        Optional.of(ExecutionFailure.of(cause)), false);
    }

    static JobEnd completed(ExitStatus exitStatus) {
        return new JobEnd(ExecutionStatus.COMPLETED, exitStatus, Optional.empty());
    }

    static JobEnd stopped() {
        return new JobEnd(ExecutionStatus.STOPPED, ExitStatus.defaultFor(ExecutionStatus.STOPPED), Optional.empty());
    }

    static JobEnd failed(ExitStatus exitStatus, ExecutionFailure failure) {
        return new JobEnd(ExecutionStatus.FAILED, exitStatus, Optional.of(failure));
    }

    static JobEnd failed(String reason) {
        return failed(ExitStatus.defaultFor(ExecutionStatus.FAILED), new ExecutionFailure("FlowFailure", reason));
    }
}
