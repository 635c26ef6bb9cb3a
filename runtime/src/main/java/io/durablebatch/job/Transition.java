package io.durablebatch.job;

import java.util.Optional;

import io.durablebatch.Checks;
import io.durablebatch.context.JobContext;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.operator.JobParameters;

/**
 * One edge of a job's flow: when the node {@code from} ends with an exit code matching {@code on},
 * do {@code kind}, continuing with node {@code to} (for a stop: the restart position, if any). An edge that
 * ends the job (END, FAIL, STOP) may set the exit status the job ends with: taking it sets the
 * job's exit status ({@link JobContext#setExitStatus}), over any set before.
 */
public record Transition(String from, ExitCodePattern on, TransitionKind kind, Optional<String> to,
        Optional<ExitStatus> exitStatus, Optional<PerExecution> perExecution) {

    /**
     * A transition whose pattern, target or exit status each execution resolves from its job
     * parameters: all three as {@link ParameterizedValue}s (the others literals). The transition's
     * own {@code on}, {@code to} and {@code exitStatus} hold their written forms, for display; the
     * flow routes by the transition {@link #resolvedFor resolved} for the execution.
     */
    public record PerExecution(ParameterizedValue on, Optional<ParameterizedValue> to,
            Optional<ParameterizedValue> exitStatus) {

        public PerExecution {
            Checks.notNull(on, "transition.on");
            Checks.notNull(to, "transition.to");
            Checks.notNull(exitStatus, "transition.exitStatus");
        }

        /** Whether the target is resolved per execution (and may then name any node). */
        public boolean resolvesTarget() {
            return to.isPresent() && !to.get().isLiteral();
        }
    }

    public Transition {
        Checks.notNull(from, "transition.from");
        Checks.notNull(on, "transition.on");
        Checks.notNull(kind, "transition.kind");
        Checks.notNull(to, "transition.to");
        Checks.notNull(exitStatus, "transition.exitStatus");
        Checks.notNull(perExecution, "transition.perExecution");
        if (kind.hasTarget() && to.isEmpty() || !kind.mayHaveTarget() && to.isPresent()) {
            throw new IllegalArgumentException("transition.to must be " + (kind.hasTarget() ? "given" : "empty")
                    + " for a " + kind + " transition from '" + from + "'");
        }
        if (kind == TransitionKind.NEXT && exitStatus.isPresent()) {
            throw new IllegalArgumentException("transition.exitStatus must be empty for a NEXT transition from '"
                    + from + "': only an end of the job has an exit status");
        }
    }

    public Transition(String from, ExitCodePattern on, TransitionKind kind, Optional<String> to,
            Optional<ExitStatus> exitStatus) {
        this(from, on, kind, to, exitStatus, Optional.empty());
    }

    /**
     * A transition whose parts may each be resolved per execution. Its own fields hold the written
     * forms, so a transition of literals is recorded exactly as one declared without them.
     */
    static Transition of(String from, ParameterizedValue on, TransitionKind kind, Optional<ParameterizedValue> to,
            Optional<ParameterizedValue> exitStatus) {
        boolean literal = on.isLiteral() && to.map(ParameterizedValue::isLiteral).orElse(true)
                && exitStatus.map(ParameterizedValue::isLiteral).orElse(true);
        return new Transition(from, ExitCodePattern.of(on.writtenForm()), kind, to.map(ParameterizedValue::writtenForm),
                exitStatus.map(status -> ExitStatus.of(status.writtenForm())),
                literal ? Optional.empty() : Optional.of(new PerExecution(on, to, exitStatus)));
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
        if (perExecution.isPresent()) {
            PerExecution written = perExecution.get();
            return "transition " + from + " " + written.on().canonical() + " " + kindName()
                    + written.to().map(target -> " " + target.canonical()).orElse("")
                    + written.exitStatus().map(status -> " exit " + status.canonical()).orElse("");
        }
        return "transition " + from + " " + canonical(on.value()) + " " + kindName()
                + to.map(target -> " " + target).orElse("")
                + exitStatus.map(status -> " exit " + canonical(status.code())).orElse("");
    }

    private String kindName() {
        return kind.name().toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * This transition as an execution with {@code parameters} takes it: every part resolved. Whether
     * a resolved target names a node is for the job to check.
     *
     * @throws IllegalArgumentException naming the part that does not resolve to a valid value
     */
    Transition resolvedFor(JobParameters parameters) {
        if (perExecution.isEmpty()) {
            return this;
        }
        PerExecution written = perExecution.get();
        ExitCodePattern pattern = written.on().resolve("the transition's pattern", parameters, ExitCodePattern::of);
        Optional<String> target = written.to().map(value -> value.resolve("the transition's target", parameters,
                id -> id));
        Optional<ExitStatus> status = written.exitStatus()
                .map(value -> value.resolve("the transition's exit status", parameters, ExitStatus::of));
        return new Transition(from, pattern, kind, target, status);
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
