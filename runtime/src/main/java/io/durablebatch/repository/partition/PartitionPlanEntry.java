package io.durablebatch.repository.partition;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;

import io.durablebatch.Checks;

/**
 * One entry of a partition plan: the partition's key, unique within the plan, and the opaque input
 * its worker reads (a key range, a file name...). Plans are read back in {@link #KEY_ORDER}.
 */
public final class PartitionPlanEntry {

    /** Upper bound of a partition key. */
    public static final int MAX_KEY_LENGTH = 512;
    /** Upper bound of a partition's input, which the whole plan carries in one statement. */
    public static final int MAX_INPUT_LENGTH = 16 * 1024;

    /** Unsigned byte order of the keys, the order the database keeps them in whatever its collation. */
    public static final Comparator<PartitionPlanEntry> KEY_ORDER = (a, b) -> Arrays.compareUnsigned(a.key, b.key);

    private final byte[] key;
    private final byte[] input;

    private PartitionPlanEntry(byte[] key, byte[] input) {
        this.key = key;
        this.input = input;
    }

    public static PartitionPlanEntry of(byte[] key, byte[] input) {
        byte[] checkedKey = Checks.boundedBytes(key, "partition.key", MAX_KEY_LENGTH);
        if (checkedKey.length == 0) {
            throw new IllegalArgumentException("partition.key must not be empty");
        }
        return new PartitionPlanEntry(checkedKey, Checks.boundedBytes(input, "partition.input", MAX_INPUT_LENGTH));
    }

    /** An entry whose key is the UTF-8 encoding of {@code key}. */
    public static PartitionPlanEntry of(String key, byte[] input) {
        Checks.notNull(key, "partition.key");
        return of(key.getBytes(StandardCharsets.UTF_8), input);
    }

    public byte[] key() {
        return key.clone();
    }

    public byte[] input() {
        return input.clone();
    }

    /** Whether the two entries have the same key (their inputs aside). */
    public boolean sameKey(PartitionPlanEntry other) {
        return Arrays.equals(key, other.key);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof PartitionPlanEntry that && Arrays.equals(key, that.key)
                && Arrays.equals(input, that.input);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(key) + Arrays.hashCode(input);
    }

    @Override
    public String toString() {
        return "PartitionPlanEntry[key=" + HexFormat.of().formatHex(key) + ", input=" + input.length + " bytes]";
    }
}
