package io.durablebatch.repository;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;

import io.durablebatch.runtime.Checks;

/**
 * The SHA-256 digest of an audited request in the caller's canonical form: exactly 32 bytes. An
 * operation id recorded with one digest refuses a request with another, so a retry is recognized
 * and a reused operation id is not.
 */
public final class RequestDigest {

    public static final int LENGTH = 32;

    private final byte[] bytes;

    private RequestDigest(byte[] bytes) {
        this.bytes = bytes;
    }

    public static RequestDigest of(byte[] bytes) {
        return new RequestDigest(Checks.bytes(bytes, "requestDigest", LENGTH));
    }

    /** The digest of a request's canonical text, e.g. {@code "stop|execution=42|version=3"}. */
    public static RequestDigest sha256(String canonicalRequest) {
        Checks.notNull(canonicalRequest, "canonicalRequest");
        try {
            return new RequestDigest(MessageDigest.getInstance("SHA-256")
                    .digest(canonicalRequest.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime provides SHA-256", e);
        }
    }

    public byte[] bytes() {
        return bytes.clone();
    }

    public String hex() {
        return HexFormat.of().formatHex(bytes);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RequestDigest that && Arrays.equals(bytes, that.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return hex();
    }
}
