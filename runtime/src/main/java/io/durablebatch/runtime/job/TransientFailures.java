package io.durablebatch.runtime.job;

import java.sql.SQLException;

import io.durablebatch.repository.RepositoryException;

/**
 * Which failures are worth re-running a whole unit of work for: serialization failures and
 * deadlocks (SQL state class 40), lost connections (class 08) and an administrator's shutdown of
 * the session, wherever they sit in the cause chain.
 */
final class TransientFailures {

    private TransientFailures() {
    }

    static boolean isTransient(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof RepositoryException repositoryException && repositoryException.isTransient()) {
                return true;
            }
            if (cause instanceof SQLException sql && isTransientState(sql.getSQLState())) {
                return true;
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return false;
    }

    static boolean isTransientState(String state) {
        return state != null && (state.startsWith("40") || state.startsWith("08") || state.equals("57P01"));
    }
}
