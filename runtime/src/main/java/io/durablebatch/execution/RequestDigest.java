package io.durablebatch.execution;

import java.nio.charset.StandardCharsets;

import io.durablebatch.Checks;

/**
 * The SHA-256 digest of an audited request in the caller's canonical form: exactly 32 bytes. An
 * operation id recorded with one digest refuses a request with another, so a retry is recognized
 * and a reused operation id is not.
 */
public final class RequestDigest extends Sha256Digest {

    private RequestDigest(byte[] bytes) {
        super(bytes, "requestDigest");
    }

    public static RequestDigest of(byte[] bytes) {
        return new RequestDigest(bytes);
    }

    /** The digest of a request's canonical text, e.g. {@code "stop|execution=42|version=3"}. */
    public static RequestDigest sha256(String canonicalRequest) {
        Checks.notNull(canonicalRequest, "canonicalRequest");
        return new RequestDigest(Sha256Digest.digestOf(canonicalRequest.getBytes(StandardCharsets.UTF_8)));
    }
}
