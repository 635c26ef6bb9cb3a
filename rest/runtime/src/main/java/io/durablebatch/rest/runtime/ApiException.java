package io.durablebatch.rest.runtime;

import java.util.Optional;

/**
 * A refusal of the API itself (not of the repository), answered as a problem of its code. Public only
 * because Quarkus REST calls the resource's exception mappers from generated classes.
 */
public final class ApiException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    final ApiError error;
    final Optional<String> field;

    ApiException(ApiError error, String detail, Optional<String> field) {
        super(detail);
        this.error = error;
        this.field = field;
    }
}
