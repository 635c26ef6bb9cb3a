package io.durablebatch.rest;

import java.util.Locale;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * An RFC 9457 problem detail, as every refusal and error of the operator REST API is answered
 * ({@code application/problem+json}). {@code type} is {@code urn:durable-batch:problem:<code>} with
 * the code in lower case and dashes; {@code code} is the {@code RepositoryError} name (or one of the
 * API's own codes: {@code VALUE_INVALID}, {@code REQUEST_MALFORMED}, {@code PRECONDITION_REQUIRED},
 * {@code NOT_FOUND}, {@code UNEXPECTED}); {@code field} names the offending value of a 422;
 * {@code currentVersion} is the execution's version in a 412; {@code correlationId} is the id under
 * which the server logged the problem (with the cause of a 5xx), to quote when asking its operators.
 */
@JsonInclude(JsonInclude.Include.NON_ABSENT)
public record Problem(String type, String title, int status, String detail, String code, Optional<String> field,
        Optional<String> instance, Optional<Long> currentVersion, String correlationId) {

    /** The media type of a problem document. */
    public static final String MEDIA_TYPE = "application/problem+json";

    /** The type URI of a code: {@code urn:durable-batch:problem:execution-active}. */
    public static String typeOf(String code) {
        return "urn:durable-batch:problem:" + code.toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
