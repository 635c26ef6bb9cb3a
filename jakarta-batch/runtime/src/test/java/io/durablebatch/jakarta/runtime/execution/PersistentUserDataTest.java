package io.durablebatch.jakarta.runtime.execution;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.durablebatch.execution.Checkpoint;

/** The stored form of persistent user data: round trip, null, bounds, and bytes that are none. */
class PersistentUserDataTest {

    @Test
    void dataIsReadBackAsItWasSet() {
        ArrayList<String> data = new ArrayList<>(List.of("a", "b"));
        assertEquals(data, PersistentUserData.of(Optional.of(PersistentUserData.checkpoint(data, "s"))));
        assertArrayEquals(new int[] { 1, 2 },
                (int[]) PersistentUserData.decode(PersistentUserData.encode(new int[] { 1, 2 }, "s")));
    }

    @Test
    void nullIsKeptAsNothingAndNoCheckpointHoldsNone() {
        assertNull(PersistentUserData.of(Optional.of(PersistentUserData.checkpoint(null, "s"))));
        assertNull(PersistentUserData.of(Optional.empty()));
    }

    @Test
    void otherCheckpointBytesAreNoUserData() {
        assertFalse(PersistentUserData.holdsUserData(new byte[] { 0, 0, 0, 4, 1 }));
        assertNull(PersistentUserData.of(Optional.of(Checkpoint.of(new byte[] { 'J', 'P' }))));
        assertTrue(assertThrows(IllegalStateException.class, () -> PersistentUserData.decode(new byte[3])).getMessage()
                .contains("are no persistent user data"));
    }

    @Test
    void dataThatDoesNotSerializeOrIsTooLargeIsRefusedWithTheStepsName() {
        String unserializable = assertThrows(IllegalArgumentException.class,
                () -> PersistentUserData.encode(new ArrayList<>(List.of(new Object())), "load")).getMessage();
        assertTrue(unserializable.startsWith("the persistent user data of step 'load' cannot be kept: it does not "
                + "serialize (java.io.NotSerializableException: java.lang.Object)"), unserializable);
        String huge = assertThrows(IllegalArgumentException.class,
                () -> PersistentUserData.encode(new byte[Checkpoint.MAX_LENGTH], "load")).getMessage();
        assertTrue(huge.matches("the persistent user data of step 'load' cannot be kept: it serializes to \\d+ "
                + "bytes, and at most " + PersistentUserData.MAX_SERIALIZED_LENGTH + " are kept"), huge);
        PersistentUserData.encode(new byte[PersistentUserData.MAX_SERIALIZED_LENGTH - 100], "load");
    }
}
