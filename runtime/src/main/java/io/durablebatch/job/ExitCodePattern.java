package io.durablebatch.job;

import io.durablebatch.Checks;
import io.durablebatch.execution.ExitStatus;

/**
 * A pattern over exit codes, as flows branch on them: {@code *} matches any run of characters
 * (including none) and {@code ?} exactly one, as in Spring Batch. A pattern without wildcards
 * matches only that exact code.
 * <p>
 * When several patterns of one node match, the most specific wins: fewer {@code *}, then fewer
 * {@code ?}, then the longer pattern; ties keep declaration order.
 */
public record ExitCodePattern(String value) implements Comparable<ExitCodePattern> {

    public ExitCodePattern {
        // an exit code's text, in which '*' and '?' are wildcards
        Checks.text(value, "pattern", ExitStatus.MAX_CODE_LENGTH);
    }

    public static ExitCodePattern of(String value) {
        return new ExitCodePattern(value);
    }

    public boolean matches(String exitCode) {
        return matches(value, 0, exitCode, 0);
    }

    private static boolean matches(String pattern, int p, String code, int c) {
        while (p < pattern.length()) {
            char wanted = pattern.charAt(p);
            if (wanted == '*') {
                // collapse runs of '*', then try every split point for the rest of the pattern
                while (p < pattern.length() && pattern.charAt(p) == '*') {
                    p++;
                }
                if (p == pattern.length()) {
                    return true;
                }
                for (int next = c; next <= code.length(); next++) {
                    if (matches(pattern, p, code, next)) {
                        return true;
                    }
                }
                return false;
            }
            if (c == code.length() || (wanted != '?' && wanted != code.charAt(c))) {
                return false;
            }
            p++;
            c++;
        }
        return c == code.length();
    }

    /** Orders the more specific pattern first. */
    @Override
    public int compareTo(ExitCodePattern other) {
        int byStars = Long.compare(count('*'), other.count('*'));
        if (byStars != 0) {
            return byStars;
        }
        int byQuestionMarks = Long.compare(count('?'), other.count('?'));
        return byQuestionMarks != 0 ? byQuestionMarks : Integer.compare(other.value.length(), value.length());
    }

    private long count(char wildcard) {
        return value.chars().filter(ch -> ch == wildcard).count();
    }

    @Override
    public String toString() {
        return value;
    }
}
