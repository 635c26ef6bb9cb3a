package io.durablebatch.execution;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;

import io.durablebatch.Checks;

/**
 * A SHA-256 value of exactly 32 bytes, immutable and compared by content. Each subtype names what
 * was digested ({@link PlanFingerprint}, {@link RequestDigest}, {@code InputDigest}); values of
 * different subtypes never compare equal.
 */
public abstract class Sha256Digest {

    public static final int LENGTH = 32;

    private final byte[] bytes;

    /** Copies {@code bytes}, refusing any other length with a message naming {@code field}. */
    protected Sha256Digest(byte[] bytes, String field) {
        this.bytes = Checks.bytes(bytes, field, LENGTH);
    }

    /** The SHA-256 of {@code bytes}: what every subtype digests its canonical form with. */
    protected static byte[] digestOf(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform provides SHA-256", e);
        }
    }

    public final byte[] bytes() {
        return bytes.clone();
    }

    public final String hex() {
        return HexFormat.of().formatHex(bytes);
    }

    @Override
    public final boolean equals(Object other) {
        return other != null && other.getClass() == getClass() && Arrays.equals(bytes, ((Sha256Digest) other).bytes);
    }

    @Override
    public final int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public final String toString() {
        return hex();
    }
}
