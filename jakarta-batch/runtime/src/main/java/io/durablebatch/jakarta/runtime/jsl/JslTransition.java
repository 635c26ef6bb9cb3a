package io.durablebatch.jakarta.runtime.jsl;

import java.util.Objects;
import java.util.Optional;

/**
 * A transition element of a step, flow or decision, chosen when its {@code on} pattern ({@code *} and
 * {@code ?} wildcards) matches the exit status: {@code <next on to>} goes on, {@code <end>}, {@code <fail>}
 * and {@code <stop>} end the job with an optional {@code exit-status}, and {@code <stop restart>} names
 * where a restart resumes.
 */
public record JslTransition(Kind kind, String on, Optional<String> to, Optional<String> exitStatus,
        Optional<String> restart, JslLocation location) {

    public enum Kind {
        NEXT("next"),
        END("end"),
        FAIL("fail"),
        STOP("stop");

        private final String element;

        Kind(String element) {
            this.element = element;
        }

        /** The element that writes this transition. */
        public String element() {
            return element;
        }
    }

    public JslTransition {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(on, "on");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(exitStatus, "exitStatus");
        Objects.requireNonNull(restart, "restart");
        Objects.requireNonNull(location, "location");
        if (to.isPresent() != (kind == Kind.NEXT)) {
            throw new IllegalArgumentException("only <next> has a 'to': " + kind);
        }
        if (restart.isPresent() && kind != Kind.STOP) {
            throw new IllegalArgumentException("only <stop> has a 'restart': " + kind);
        }
    }
}
