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
    HOLD_NOT_FOUND(404, false),
    /** The job has no schedule. */
    SCHEDULE_NOT_FOUND(404, false),
    /** Nothing exists at this path. */
    NOT_FOUND(404),
    /** The path exists, but not with this HTTP method; {@code Allow} lists the methods it has. */
    METHOD_NOT_ALLOWED(405),
    /** The endpoint cannot answer in a media type the request's {@code Accept} allows. */
    NOT_ACCEPTABLE(406),
    /** The body is larger than {@code quarkus.http.limits.max-body-size}. */
    BODY_TOO_LARGE(413),
    /** The endpoint does not read the request's {@code Content-Type}. */
    MEDIA_TYPE_UNSUPPORTED(415),
    /** A failure the caller did not cause; the server's log has it under the problem's correlation id. */
    UNEXPECTED(500);

    final int status;
    /** Whether the HTTP layer answers this code by itself; false for an endpoint's answer about a thing. */
    private final boolean answeredByHttp;

    ApiError(int status) {
        this(status, true);
    }

    ApiError(int status, boolean answeredByHttp) {
        this.status = status;
        this.answeredByHttp = answeredByHttp;
    }

    /** The code of an error status the HTTP layer answers by itself, before any endpoint runs. */
    static ApiError ofStatus(int status) {
        for (ApiError error : values()) {
            if (error.status == status && error.answeredByHttp) {
                return error;
            }
        }
        return status >= 500 ? UNEXPECTED : REQUEST_MALFORMED;
    }
}
