package io.durablebatch.runtime.job;

import java.sql.SQLException;

import io.durablebatch.repository.RepositoryException;
import io.durablebatch.runtime.sql.MetadataSql;

/**
 * Which failures are worth re-running a whole unit of work for, wherever they sit in the cause
 * chain: serialization failures and deadlocks (SQL state class 40), lost connections (class 08), a
 * server shutting down or starting up (57P01–57P03), a lock or statement timeout (55P03, 57014),
 * and a connection the pool could not open while the database was away.
 */
final class TransientFailures {

    private TransientFailures() {
    }

    static boolean isTransient(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof RepositoryException repositoryException && repositoryException.isTransient()) {
                return true;
            }
            if (cause instanceof SQLException sql && (isTransientState(sql.getSQLState()) || isPoolExhausted(sql))) {
                return true;
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

    static boolean isTransientState(String state) {
        return MetadataSql.isTransientState(state);
    }
}
