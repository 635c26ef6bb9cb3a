package io.durablebatch.rest.runtime;

/**
 * The API's own problem codes, for what is not a repository refusal: a value or request the API
 * cannot read, a missing precondition, a missing hold, an unexpected failure.
 */
enum ApiError {
    /** No authenticated caller: sign in (the challenge of the application's mechanism, if any, is in the headers). */
    UNAUTHENTICATED(401),
    /** The caller lacks the endpoint's role. */
    FORBIDDEN(403),
    /** A value of the request is invalid; {@code field} names it. */
    VALUE_INVALID(422),
    /** The request cannot be read: malformed JSON or a path that is not one of the API's. */
    REQUEST_MALFORMED(400),
    /** The action needs an {@code If-Match} header with the execution's version. */
    PRECONDITION_REQUIRED(428),
    /** The instance has no retention hold. */
    HOLD_NOT_FOUND(404),
    /** Nothing exists at this path. */
    NOT_FOUND(404),
    /** A failure the caller did not cause. */
    UNEXPECTED(500);

    final int status;

    ApiError(int status) {
        this.status = status;
    }
}
