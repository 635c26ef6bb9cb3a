package io.durablebatch.execution;

import java.util.Arrays;

import io.durablebatch.Checks;

/**
 * Why an execution failed: the exception type and a message, made storable: characters PostgreSQL
 * text cannot hold (NUL, unpaired surrogates, as a malformed input line may quote) are replaced by
 * U+FFFD, and the message is truncated to a bounded size.
 */
public record ExecutionFailure(String type, String message) {

    public static final int MAX_TYPE_LENGTH = 300;
    public static final int MAX_MESSAGE_LENGTH = 4000;

    public ExecutionFailure {
        Checks.text(type, "failure.type", MAX_TYPE_LENGTH);
        Checks.notNull(message, "failure.message");
        message = storable(message);
        if (message.length() > MAX_MESSAGE_LENGTH) {
            int end = MAX_MESSAGE_LENGTH - 1;
            // never cut a surrogate pair in two
            end = Character.isHighSurrogate(message.charAt(end - 1)) ? end - 1 : end;
            message = message.substring(0, end) + "\u2026";
        }
    }

    /**
     * The failure's type and message, followed by the messages of its causes, so a wrapped database
     * error (a lost connection, a restarted server) stays visible in what is recorded.
     */
    public static ExecutionFailure of(Throwable failure) {
        Checks.notNull(failure, "failure");
        StringBuilder message = new StringBuilder(failure.getMessage() == null ? "" : failure.getMessage());
        int depth = 0;
        for (Throwable cause = failure.getCause(); cause != null && cause != failure
                && depth < 5; cause = cause.getCause(), depth++) {
            describe(message, "caused by", cause);
        }
        // a failed commit says why in what it suppressed (the transaction manager's deferred failures)
        Arrays.stream(failure.getSuppressed()).limit(3).forEach(suppressed -> describe(message, "after", suppressed));
        return new ExecutionFailure(failure.getClass().getName(), message.toString());
    }

    private static void describe(StringBuilder message, String relation, Throwable cause) {
        if (cause.getMessage() != null && !message.toString().contains(cause.getMessage())) {
            message.append(message.length() == 0 ? "" : "; " + relation + " ").append(cause.getClass().getName())
                    .append(": ").append(cause.getMessage());
        }
    }

    private static String storable(String text) {
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean pair = Character.isHighSurrogate(c) && i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1));
            boolean bad = c == '\0' || (Character.isSurrogate(c) && !pair);
            if (bad && out == null) {
                out = new StringBuilder(text.length()).append(text, 0, i);
            }
            if (out != null) {
                out.append(bad ? '\uFFFD' : c);
                if (pair) {
                    out.append(text.charAt(++i));
                }
            } else if (pair) {
                i++;
            }
        }
        return out == null ? text : out.toString();
    }
}
