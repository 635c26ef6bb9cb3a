package io.durablebatch.jakarta.runtime.jsl;

import java.util.Objects;

/** One thing wrong with a job XML, at the element it concerns. */
public record JslProblem(JslLocation location, String reason) {

    public JslProblem {
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(reason, "reason");
    }

    /** {@code META-INF/batch-jobs/x.xml line 12: <step id="s1">: next="s9" names no element of the job} */
    public String message() {
        return location + ": " + reason;
    }
}
