package io.durablebatch.runtime.dev;

import io.durablebatch.repository.RepositoryException;

/**
 * The answer to a Dev UI action. A refusal is a normal answer, not an error of the call:
 * {@code success} is false, {@code error} names the {@link io.durablebatch.repository.RepositoryError}
 * code (or {@code BAD_REQUEST} for input the operator refused as invalid) and {@code message} says why.
 * {@code executionId} is the execution the action started or acted on.
 */
public record ActionResult(boolean success, String message, String error, Long executionId) {

    /** The action succeeded. */
    static ActionResult done(String message, long executionId) {
        return new ActionResult(true, message, null, executionId);
    }

    /** The repository refused the action. */
    static ActionResult refused(RepositoryException refusal) {
        return new ActionResult(false, refusal.getMessage(), refusal.error().name(), null);
    }

    /** The input was invalid (a malformed parameter, an unknown job name, a bad resolution). */
    static ActionResult invalid(IllegalArgumentException bad) {
        return new ActionResult(false, bad.getMessage(), "BAD_REQUEST", null);
    }
}
