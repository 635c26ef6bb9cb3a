package io.durablebatch.deployment.test.partition;

import static io.durablebatch.deployment.test.InvalidValues.assertInvalid;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.durablebatch.repository.partition.PartitionPlanEntry;
import io.durablebatch.repository.partition.StepPartitionId;

/** Partition plan entries are bounded and ordered by unsigned key bytes. */
class PartitionValuesTest {

    @Test
    void keysAndInputsAreBounded() {
        assertInvalid("partition.key must not be empty", () -> PartitionPlanEntry.of(new byte[0], new byte[0]));
        assertInvalid("partition.key must be at most 512 bytes, got 513",
                () -> PartitionPlanEntry.of(new byte[513], new byte[0]));
        assertInvalid("partition.input must be at most 16384 bytes, got 16385",
                () -> PartitionPlanEntry.of(new byte[] { 1 }, new byte[16_385]));
        assertInvalid("partition.input must not be null", () -> PartitionPlanEntry.of(new byte[] { 1 }, null));
        assertInvalid("partition.key must not be null", () -> PartitionPlanEntry.of((String) null, new byte[0]));
        assertEquals(512, PartitionPlanEntry.of(new byte[512], new byte[16_384]).key().length);
        assertInvalid("stepPartitionId must be positive", () -> StepPartitionId.of(0));
    }

    @Test
    void entriesKeepTheirOwnCopiesAndCompareByContent() {
        byte[] key = { 1, 2 };
        byte[] input = { 3 };
        PartitionPlanEntry entry = PartitionPlanEntry.of(key, input);
        key[0] = 9;
        input[0] = 9;
        entry.key()[1] = 9;
        assertEquals(PartitionPlanEntry.of(new byte[] { 1, 2 }, new byte[] { 3 }), entry);
        assertNotEquals(PartitionPlanEntry.of(new byte[] { 1, 2 }, new byte[] { 4 }), entry);
        assertTrue(entry.sameKey(PartitionPlanEntry.of(new byte[] { 1, 2 }, new byte[] { 4 })));
    }

    @Test
    void keyOrderIsUnsignedByteOrder() {
        List<PartitionPlanEntry> entries = new ArrayList<>(List.of(key(0x80), key(0x7f), key(0xff, 0x00), key(0xff),
                key(0x00)));
        entries.sort(PartitionPlanEntry.KEY_ORDER);
        assertEquals(List.of(key(0x00), key(0x7f), key(0x80), key(0xff), key(0xff, 0x00)), entries);
    }

    private static PartitionPlanEntry key(int... bytes) {
        byte[] key = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            key[i] = (byte) bytes[i];
        }
        return PartitionPlanEntry.of(key, new byte[0]);
    }
}
