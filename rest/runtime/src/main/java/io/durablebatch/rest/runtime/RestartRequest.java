package io.durablebatch.rest.runtime;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A restart; {@code nonIdentifying}, when given, replaces the non-identifying parameters of the
 * attempt it restarts (which a restart otherwise keeps).
 */
public record RestartRequest(JsonNode nonIdentifying) {
}
