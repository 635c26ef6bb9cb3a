package io.durablebatch.repository;

import io.durablebatch.Checks;

/** A refusal or failure of a repository operation, carrying its {@link RepositoryError} code. */
public final class RepositoryException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final RepositoryError error;

    public RepositoryException(RepositoryError error, String message) {
        super(error + ": " + message);
        this.error = Checks.notNull(error, "error");
    }

    public RepositoryException(RepositoryError error, String message, Throwable cause) {
        super(error + ": " + message, cause);
        this.error = Checks.notNull(error, "error");
    }

    public RepositoryError error() {
        return error;
    }

    /** Whether retrying the whole unit of work in a new transaction may succeed. */
    public boolean isTransient() {
        return error == RepositoryError.STORAGE_TRANSIENT;
    }
}
