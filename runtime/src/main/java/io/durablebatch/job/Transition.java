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
        return "transition " + from + " " + canonical(on.value()) + " " + kind.name().toLowerCase(java.util.Locale.ROOT)
                + to.map(target -> " " + target).orElse("");
    }

    /**
     * A pattern as the canonical plan writes it: as it is when it is a token (letters, digits and
     * {@code _-.:/@*?}, as every pattern once was, so their plans keep their fingerprints), else
     * quoted, with {@code \} and {@code "} escaped, so that a space in it cannot make two plans one text.
     */
    static String canonical(String text) {
        boolean token = text.chars().allMatch(c -> (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
                || (c >= '0' && c <= '9') || "_-.:/@*?".indexOf(c) >= 0);
        return token ? text : '"' + text.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
}
