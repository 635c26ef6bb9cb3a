package io.durablebatch.rest.runtime;

import java.util.Optional;

import io.durablebatch.execution.ExecutionVersion;

/**
 * Execution versions as strong entity tags: version 7 is {@code "7"}. A weak tag never matches
 * ({@code If-Match} compares strongly, RFC 9110 13.1.1); {@code *} matches any version.
 */
final class EntityTags {

    static final String IF_MATCH = "If-Match";

    private EntityTags() {
    }

    static String of(long version) {
        return "\"" + version + "\"";
    }

    /** Whether {@code ifMatch} names {@code current}; throws if it is not an entity tag list. */
    static boolean matches(String ifMatch, ExecutionVersion current) {
        for (String tag : ifMatch.split(",")) {
            String trimmed = tag.trim();
            if (trimmed.equals("*") || trimmed.equals(of(current.value()))) {
                return true;
            }
            if (!trimmed.startsWith("W/") && !(trimmed.length() >= 2 && trimmed.startsWith("\"") && trimmed.endsWith(
                    "\""))) {
                throw new ApiException(ApiError.VALUE_INVALID, "If-Match must be a list of entity tags such as \"7\", got "
                        + ifMatch, Optional.of(IF_MATCH));
            }
        }
        return false;
    }

    /** The version an {@code If-Match} names: one strong tag. */
    static ExecutionVersion version(String ifMatch) {
        String trimmed = ifMatch.trim();
        try {
            if (trimmed.length() >= 3 && trimmed.startsWith("\"") && trimmed.endsWith("\"")) {
                return ExecutionVersion.of(Long.parseLong(trimmed.substring(1, trimmed.length() - 1)));
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new ApiException(ApiError.VALUE_INVALID, "If-Match must be one strong entity tag with the execution's "
                + "version, such as \"7\", got " + ifMatch, Optional.of(IF_MATCH));
    }
}
