package io.durablebatch.repository.flow;

import io.durablebatch.Checks;
import io.durablebatch.execution.Sha256Digest;

/**
 * The SHA-256 digest of the durable input a flow decision was made on (for a decider, typically the
 * exit statuses and context it read): exactly 32 bytes. A restart reuses a recorded decision only
 * when its input digest is identical.
 */
public final class InputDigest extends Sha256Digest {

    private InputDigest(byte[] bytes) {
        super(bytes, "inputDigest");
    }

    public static InputDigest of(byte[] bytes) {
        return new InputDigest(bytes);
    }

    /** The digest of {@code input}, the canonical bytes of a decision's durable input. */
    public static InputDigest sha256(byte[] input) {
        Checks.notNull(input, "input");
        return new InputDigest(Sha256Digest.digestOf(input));
    }
}
