package io.durablebatch.runtime.job;

import java.time.Instant;
import java.util.Optional;

import io.durablebatch.execution.ExecutionFailure;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.repository.LifecycleTransition;

/** How a job execution's flow ended: the status to record, its exit status and the failure, if any. */
record JobEnd(ExecutionStatus status, ExitStatus exitStatus, Optional<ExecutionFailure> failure) {

    /** The transition that records this end at {@code at}. */
    LifecycleTransition transition(Instant at) {
        LifecycleTransition transition = LifecycleTransition.to(status, at).withExitStatus(exitStatus);
        return failure.map(transition::withFailure).orElse(transition);
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
