package io.durablebatch.flow;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;

import io.durablebatch.runtime.Checks;

/**
 * The SHA-256 digest of the durable input a flow decision was made on (for a decider, typically the
 * exit statuses and context it read): exactly 32 bytes. A restart reuses a recorded decision only
 * when its input digest is identical.
 */
public final class InputDigest {

    public static final int LENGTH = 32;

    private final byte[] bytes;

    private InputDigest(byte[] bytes) {
        this.bytes = bytes;
    }

    public static InputDigest of(byte[] bytes) {
        return new InputDigest(Checks.bytes(bytes, "inputDigest", LENGTH));
    }

    /** The digest of {@code input}, the canonical bytes of a decision's durable input. */
    public static InputDigest sha256(byte[] input) {
        Checks.notNull(input, "input");
        try {
            return new InputDigest(MessageDigest.getInstance("SHA-256").digest(input));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java runtime", e);
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
        return other instanceof InputDigest that && Arrays.equals(bytes, that.bytes);
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
