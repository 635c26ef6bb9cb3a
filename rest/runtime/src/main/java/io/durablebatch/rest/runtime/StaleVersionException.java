package io.durablebatch.rest.runtime;

/**
 * The {@code If-Match} of a request named another version than the execution's: answered 412 with
 * code {@code VERSION_CONFLICT} and the current version, so the caller can read the execution again
 * and decide anew.
 */
public final class StaleVersionException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    final long currentVersion;

    StaleVersionException(long executionId, String expected, long currentVersion) {
        super("job execution " + executionId + " is at version " + currentVersion + ", not the If-Match " + expected
                + ": read it again and decide anew");
        this.currentVersion = currentVersion;
    }
}
