package io.durablebatch.jakarta.runtime.jsl;

import java.util.List;

/** A job XML that cannot be run as written; the message names the file, line and element of each problem. */
public class JslException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final List<JslProblem> problems;

    public JslException(List<JslProblem> problems) {
        super(message(problems));
        this.problems = List.copyOf(problems);
    }

    public JslException(JslProblem problem) {
        this(List.of(problem));
    }

    public List<JslProblem> problems() {
        return problems;
    }

    private static String message(List<JslProblem> problems) {
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("a JslException needs a problem");
        }
        if (problems.size() == 1) {
            return problems.get(0).message();
        }
        StringBuilder message = new StringBuilder(problems.size() + " problems in job XML:");
        problems.forEach(problem -> message.append("\n  ").append(problem.message()));
        return message.toString();
    }
}
