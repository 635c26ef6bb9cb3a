package io.durablebatch.repository;

import java.util.Arrays;
import java.util.HexFormat;

import io.durablebatch.runtime.Checks;
import io.durablebatch.runtime.Sha256;

/** The SHA-256 fingerprint of a job plan's canonical form: exactly 32 bytes. */
public final class PlanFingerprint {

    public static final int LENGTH = Sha256.LENGTH;

    private final byte[] bytes;

    private PlanFingerprint(byte[] bytes) {
        this.bytes = bytes;
    }

    public static PlanFingerprint of(byte[] bytes) {
        return new PlanFingerprint(Checks.bytes(bytes, "planFingerprint", LENGTH));
    }

    public static PlanFingerprint ofHex(String hex) {
        Checks.notNull(hex, "planFingerprint");
        try {
            return of(HexFormat.of().parseHex(hex));
        } catch (IllegalArgumentException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("planFingerprint")) {
                throw e;
            }
            throw new IllegalArgumentException("planFingerprint must be 64 hexadecimal digits: " + e.getMessage());
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
        return other instanceof PlanFingerprint that && Arrays.equals(bytes, that.bytes);
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
