package io.durablebatch.execution;

import java.nio.file.FileSystemException;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

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

    /** How much of one message (a statement a JDBC driver quotes, typically) a recorded failure keeps. */
    static final int MAX_PART_LENGTH = 600;

    /**
     * The failure's type and a message that says why first: when a database refused the work, the
     * SQL state and the innermost database error (for a JDBC batch, its
     * {@link SQLException#getNextException() next exception}, which the batch's own message quotes only
     * after the whole statement); then the failure's own message, bounded; then the messages of its
     * causes not yet said, so a wrapped database error (a lost connection, a restarted server) stays
     * visible. A file-system failure, whose message is only the file, is named by its type.
     */
    public static ExecutionFailure of(Throwable failure) {
        Checks.notNull(failure, "failure");
        StringBuilder message = new StringBuilder();
        SQLException database = innermostDatabaseError(failure);
        if (database != null) {
            message.append("SQL state ").append(database.getSQLState()).append(": ")
                    .append(bounded(oneLine(database.getMessage())));
        }
        String own = ownMessage(failure);
        if (!own.isEmpty() && !said(message, own)) {
            message.append(message.length() == 0 ? "" : "; reported as: ").append(bounded(own));
        }
        int depth = 0;
        for (Throwable cause = failure.getCause(); cause != null && cause != failure
                && depth < 5; cause = cause.getCause(), depth++) {
            describe(message, "caused by", cause);
        }
        // a failed commit says why in what it suppressed (the transaction manager's deferred failures)
        Arrays.stream(failure.getSuppressed()).limit(3).forEach(suppressed -> describe(message, "after", suppressed));
        return new ExecutionFailure(failure.getClass().getName(), message.toString());
    }

    /**
     * The deepest database error with an SQL state among the failure's causes and, for each, the
     * exceptions chained by {@link SQLException#getNextException()}; null if none.
     */
    private static SQLException innermostDatabaseError(Throwable failure) {
        SQLException innermost = null;
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable cause = failure; cause != null && seen.size() < 20 && seen.add(cause); cause = cause.getCause()) {
            if (cause instanceof SQLException sql) {
                for (SQLException next = sql; next != null && seen.size() < 20; next = next.getNextException()) {
                    seen.add(next);
                    if (next.getSQLState() != null && next.getMessage() != null) {
                        innermost = next;
                    }
                }
            }
        }
        return innermost;
    }

    private static String ownMessage(Throwable failure) {
        String message = failure.getMessage() == null ? "" : failure.getMessage();
        return failure instanceof FileSystemException ? failure.getClass().getName() + ": " + message : message;
    }

    private static void describe(StringBuilder message, String relation, Throwable cause) {
        String own = ownMessage(cause);
        if (cause.getMessage() != null && !said(message, cause.getMessage())) {
            message.append(message.length() == 0 ? "" : "; " + relation + " ")
                    .append(bounded(cause instanceof FileSystemException ? own : cause.getClass().getName() + ": " + own));
        }
    }

    /** Whether the message already says {@code text}: its start, as a bounded part of the message would. */
    private static boolean said(StringBuilder message, String text) {
        String start = oneLine(text);
        String recorded = message.toString();
        return recorded.contains(start.substring(0, Math.min(start.length(), 200)))
                || recorded.contains(text.substring(0, Math.min(text.length(), 200)));
    }

    private static String oneLine(String text) {
        return text.replaceAll("\\s*\\R\\s*", " ").strip();
    }

    private static String bounded(String text) {
        if (text.length() <= MAX_PART_LENGTH) {
            return text;
        }
        int end = MAX_PART_LENGTH - 1;
        end = Character.isHighSurrogate(text.charAt(end - 1)) ? end - 1 : end;
        return text.substring(0, end) + "\u2026";
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
