package io.durablebatch.execution;

import java.util.Arrays;
import java.util.HexFormat;

import io.durablebatch.Checks;

/**
 * The opaque restart state a step commits with its progress (a reader's position, typically).
 * A restarted step is reopened from the checkpoint of its latest attempt.
 */
public final class Checkpoint {

    /** Upper bound of a checkpoint, which travels with every chunk commit. */
    public static final int MAX_LENGTH = 64 * 1024;

    private final byte[] bytes;

    private Checkpoint(byte[] bytes) {
        this.bytes = bytes;
    }

    public static Checkpoint of(byte[] bytes) {
        return new Checkpoint(Checks.boundedBytes(bytes, "checkpoint", MAX_LENGTH));
    }

    public byte[] bytes() {
        return bytes.clone();
    }

    public int length() {
        return bytes.length;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Checkpoint that && Arrays.equals(bytes, that.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return bytes.length <= 32 ? "Checkpoint[" + HexFormat.of().formatHex(bytes) + "]"
                : "Checkpoint[" + bytes.length + " bytes]";
    }
}
