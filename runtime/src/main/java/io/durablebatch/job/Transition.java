package io.durablebatch.job;

import java.util.Optional;

import io.durablebatch.Checks;

/**
 * One edge of a job's flow: when the node {@code from} ends with an exit code matching {@code on},
 * do {@code kind}, continuing with (or, for a stop, restarting at) node {@code to}.
 */
public record Transition(String from, ExitCodePattern on, TransitionKind kind, Optional<String> to) {

    public Transition {
        Checks.notNull(from, "transition.from");
        Checks.notNull(on, "transition.on");
        Checks.notNull(kind, "transition.kind");
        Checks.notNull(to, "transition.to");
        if (kind.hasTarget() != to.isPresent()) {
            throw new IllegalArgumentException("transition.to must be " + (kind.hasTarget() ? "given" : "empty")
                    + " for a " + kind + " transition from '" + from + "'");
        }
    }

    /** This transition as one line of the canonical plan. */
    String canonicalLine() {
        return "transition " + from + " " + on + " " + kind.name().toLowerCase(java.util.Locale.ROOT)
                + to.map(target -> " " + target).orElse("");
    }
}
