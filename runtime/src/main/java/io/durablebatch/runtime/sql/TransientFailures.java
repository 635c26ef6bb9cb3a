package io.durablebatch.runtime.sql;

import java.sql.SQLException;

import io.durablebatch.repository.RepositoryException;

/**
 * The one classification of failures worth re-running a whole unit of work for, used by the
 * repository (which reports them as {@code STORAGE_TRANSIENT}) and by the kernel (which retries
 * them), wherever they sit in the cause chain: serialization failures and deadlocks (SQL state
 * class 40), lost connections (class 08), a server shutting down or starting up (57P01–57P03), a
 * lock or statement timeout (55P03, 57014), and a connection the pool could not open while the
 * database was away.
 */
public final class TransientFailures {

    private TransientFailures() {
    }

    public static boolean isTransient(Throwable failure) {
        return isTransient(failure, 0);
    }

    /**
     * Follows causes, suppressed exceptions and a batch's next exceptions: a commit that failed on a
     * lost connection reaches the caller as the transaction manager's own exception, with the driver's
     * one attached to it; a failed JDBC batch names its reason in the next exception.
     */
    private static boolean isTransient(Throwable failure, int depth) {
        for (Throwable cause = failure; cause != null && depth < 16; cause = cause.getCause(), depth++) {
            if (cause instanceof RepositoryException repositoryException && repositoryException.isTransient()) {
                return true;
            }
            if (cause instanceof SQLException sql && (isTransientState(sql.getSQLState()) || isPoolExhausted(sql)
                    || sql.getNextException() != null && isTransient(sql.getNextException(), depth + 1))) {
                return true;
            }
            for (Throwable suppressed : cause.getSuppressed()) {
                if (isTransient(suppressed, depth + 1)) {
                    return true;
                }
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return false;
    }

    /** The pool could not hand out a connection in time: while the database is away, none can be opened. */
    private static boolean isPoolExhausted(SQLException e) {
        return e.getSQLState() == null && e.getMessage() != null && e.getMessage().contains("acquisition timeout");
    }

    /** Whether a SQL state names a transient failure. */
    public static boolean isTransientState(String state) {
        return state != null && (state.startsWith("40") || state.startsWith("08") || state.startsWith("57P")
                || state.equals("55P03") || state.equals("57014"));
    }
}
