package io.durablebatch.job;

import java.util.Optional;

import io.durablebatch.Checks;
import io.durablebatch.execution.ExitStatus;

/**
 * One edge of a job's flow: when the node {@code from} ends with an exit code matching {@code on},
 * do {@code kind}, continuing with node {@code to} (for a stop: the restart position, if any). An edge that
 * ends the job (END, FAIL, STOP) may set the exit status the job ends with: taking it sets the
 * job's exit status ({@link JobContext#setExitStatus}), over any set before.
 */
public record Transition(String from, ExitCodePattern on, TransitionKind kind, Optional<String> to,
        Optional<ExitStatus> exitStatus) {

    public Transition {
        Checks.notNull(from, "transition.from");
        Checks.notNull(on, "transition.on");
        Checks.notNull(kind, "transition.kind");
        Checks.notNull(to, "transition.to");
        Checks.notNull(exitStatus, "transition.exitStatus");
        if (kind.hasTarget() && to.isEmpty() || !kind.mayHaveTarget() && to.isPresent()) {
            throw new IllegalArgumentException("transition.to must be " + (kind.hasTarget() ? "given" : "empty")
                    + " for a " + kind + " transition from '" + from + "'");
        }
        if (kind == TransitionKind.NEXT && exitStatus.isPresent()) {
            throw new IllegalArgumentException("transition.exitStatus must be empty for a NEXT transition from '"
                    + from + "': only an end of the job has an exit status");
        }
    }

    /** An edge that leaves the job's exit status as it is. */
    public Transition(String from, ExitCodePattern on, TransitionKind kind, Optional<String> to) {
        this(from, on, kind, to, Optional.empty());
    }

    /**
     * This transition as one line of the canonical plan; the exit status is written only when set, so plans without keep their
     * fingerprints.
     */
    String canonicalLine() {
        return "transition " + from + " " + canonical(on.value()) + " " + kind.name().toLowerCase(java.util.Locale.ROOT)
                + to.map(target -> " " + target).orElse("")
                + exitStatus.map(status -> " exit " + canonical(status.code())).orElse("");
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
