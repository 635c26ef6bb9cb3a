package io.durablebatch.execution;

import java.util.HexFormat;

import io.durablebatch.Checks;

/** The SHA-256 fingerprint of a job plan's canonical form: exactly 32 bytes. */
public final class PlanFingerprint extends Sha256Digest {

    private PlanFingerprint(byte[] bytes) {
        super(bytes, "planFingerprint");
    }

    public static PlanFingerprint of(byte[] bytes) {
        return new PlanFingerprint(bytes);
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
}
