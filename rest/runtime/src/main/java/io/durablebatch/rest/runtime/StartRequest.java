package io.durablebatch.rest.runtime;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A launch: the identifying parameters (with the job name, the instance) and the non-identifying
 * ones (this attempt's only), both as JSON objects of typed values.
 */
public record StartRequest(JsonNode parameters, JsonNode nonIdentifying) {
}
