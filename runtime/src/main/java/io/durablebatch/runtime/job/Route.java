package io.durablebatch.runtime.job;

import java.util.Optional;

import io.durablebatch.repository.flow.FlowTransitionKind;

/**
 * The route a flow takes after a node, as recorded: continue with a target node, or end the job
 * (completed, failed or stopped) as {@code end} says.
 */
record Route(FlowTransitionKind kind, Optional<String> target, Optional<JobEnd> end) {

    static Route to(FlowTransitionKind kind, String target) {
        return new Route(kind, Optional.of(target), Optional.empty());
    }

    static Route end(FlowTransitionKind kind, JobEnd end) {
        return new Route(kind, Optional.empty(), Optional.of(end));
    }

    /** A stop; its target is the restart position (the start node when empty), not a node this execution runs. */
    static Route stop(Optional<String> restartAt, Optional<io.durablebatch.execution.ExitStatus> exitStatus) {
        return new Route(FlowTransitionKind.STOP, restartAt, Optional.of(JobEnd.stopped().declaring(exitStatus)));
    }

    boolean continues() {
        return end.isEmpty();
    }
}
