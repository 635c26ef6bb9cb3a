package io.durablebatch.rest.runtime;

/** A retention hold: the reason recorded with it, e.g. {@code LEGAL_HOLD}. */
public record HoldRequest(String reason) {
}
