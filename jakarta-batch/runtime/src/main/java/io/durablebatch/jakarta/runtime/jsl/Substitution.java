package io.durablebatch.jakarta.runtime.jsl;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A value of a job XML with its substitutions parsed: literal text and references
 * {@code #{operator['name']}}, each optionally followed by a default {@code ?:text;}. The default is
 * used when the reference is not defined (an undefined reference without one is the empty string); it
 * may hold references itself, but not defaults of its own, since its end is the first {@code ;}.
 * A {@code #} not followed by <code>{</code> is literal.
 */
public final class Substitution {

    /** The four sources a reference reads from. */
    public enum Operator {
        JOB_PARAMETERS("jobParameters"),
        JOB_PROPERTIES("jobProperties"),
        SYSTEM_PROPERTIES("systemProperties"),
        PARTITION_PLAN("partitionPlan");

        private final String written;

        Operator(String written) {
            this.written = written;
        }

        /** How the operator is written in a job XML. */
        public String written() {
            return written;
        }

        static Optional<Operator> named(String written) {
            for (Operator operator : values()) {
                if (operator.written.equals(written)) {
                    return Optional.of(operator);
                }
            }
            return Optional.empty();
        }
    }

    /** Looks a reference up; {@code null} when it is not defined. */
    @FunctionalInterface
    public interface Lookup {
        String find(Operator operator, String name);
    }

    private sealed interface Part permits Literal, Reference {
    }

    private record Literal(String text) implements Part {
    }

    private record Reference(Operator operator, String name, Optional<Substitution> fallback) implements Part {
    }

    private static final String START = "#{";
    private static final String DEFAULT = "?:";

    private final String text;
    private final List<Part> parts;

    private Substitution(String text, List<Part> parts) {
        this.text = text;
        this.parts = List.copyOf(parts);
    }

    /**
     * @throws IllegalArgumentException naming the character where the syntax is broken
     */
    public static Substitution parse(String text) {
        Objects.requireNonNull(text, "text");
        return new Reader(text).parts(false);
    }

    /** True when the value holds no reference: it means what it says at build time. */
    public boolean isLiteral() {
        return parts.stream().allMatch(Literal.class::isInstance);
    }

    public String resolve(Lookup lookup) {
        StringBuilder resolved = new StringBuilder();
        for (Part part : parts) {
            if (part instanceof Literal literal) {
                resolved.append(literal.text());
            } else if (part instanceof Reference reference) {
                String value = lookup.find(reference.operator(), reference.name());
                if (value == null) {
                    value = reference.fallback().map(fallback -> fallback.resolve(lookup)).orElse("");
                }
                resolved.append(value);
            }
        }
        return resolved.toString();
    }

    @Override
    public String toString() {
        return text;
    }

    /** A recursive-descent reader over the text; the grammar has two levels (value, default). */
    private static final class Reader {

        private final String text;
        private int at;

        Reader(String text) {
            this.text = text;
        }

        /** A value; inside a default it ends at the first {@code ;}, which is consumed. */
        Substitution parts(boolean inDefault) {
            int from = at;
            List<Part> parts = new ArrayList<>();
            StringBuilder literal = new StringBuilder();
            while (at < text.length()) {
                if (inDefault && text.charAt(at) == ';') {
                    flush(literal, parts);
                    Substitution fallback = new Substitution(text.substring(from, at), parts);
                    at++;
                    return fallback;
                }
                if (text.startsWith(START, at)) {
                    flush(literal, parts);
                    parts.add(reference(inDefault));
                } else {
                    literal.append(text.charAt(at++));
                }
            }
            if (inDefault) {
                throw broken("the default after ?: must end with ;");
            }
            flush(literal, parts);
            return new Substitution(text, parts);
        }

        private Reference reference(boolean inDefault) {
            at += START.length();
            int bracket = text.indexOf('[', at);
            if (bracket < 0) {
                throw broken("expected operator['name']");
            }
            String written = text.substring(at, bracket);
            Operator operator = Operator.named(written).orElseThrow(() -> broken("unknown operator '" + written
                    + "', expected jobParameters, jobProperties, systemProperties or partitionPlan"));
            at = bracket + 1;
            char quote = at < text.length() ? text.charAt(at) : 0;
            if (quote != '\'' && quote != '"') {
                throw broken("expected a quoted name after " + written + "[");
            }
            int close = text.indexOf(quote, at + 1);
            if (close < 0) {
                throw broken("the name is not closed by " + quote);
            }
            String name = text.substring(at + 1, close);
            if (name.isEmpty()) {
                throw broken("the name is empty");
            }
            at = close + 1;
            if (!text.startsWith("]}", at)) {
                throw broken("expected ]} after the name");
            }
            at += 2;
            Optional<Substitution> fallback = Optional.empty();
            if (text.startsWith(DEFAULT, at)) {
                if (inDefault) {
                    throw broken("a default cannot hold another default");
                }
                at += DEFAULT.length();
                fallback = Optional.of(parts(true));
            }
            return new Reference(operator, name, fallback);
        }

        private static void flush(StringBuilder literal, List<Part> parts) {
            if (!literal.isEmpty()) {
                parts.add(new Literal(literal.toString()));
                literal.setLength(0);
            }
        }

        private IllegalArgumentException broken(String reason) {
            return new IllegalArgumentException("bad substitution at character " + (at + 1) + " of \"" + text + "\": "
                    + reason);
        }
    }
}
