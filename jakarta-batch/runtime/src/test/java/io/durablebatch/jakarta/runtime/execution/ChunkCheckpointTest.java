package io.durablebatch.jakarta.runtime.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.durablebatch.execution.Checkpoint;

/** A chunk step's checkpoint: the reader's and writer's checkpointInfo and the persistent user data, bounded. */
class ChunkCheckpointTest {

    @Test
    void theThreePartsComeBackAsTheyWere() {
        ChunkCheckpoint written = new ChunkCheckpoint(42, new ArrayList<>(List.of("a", "b")), "user data");
        ChunkCheckpoint read = ChunkCheckpoint.decode(written.encode("step s of job j")).orElseThrow();
        assertEquals(written, read);
        assertEquals("user data", PersistentUserData.of(Optional.of(written.encode("step s of job j"))));
    }

    @Test
    void nullPartsAreKeptAsNull() {
        ChunkCheckpoint read = ChunkCheckpoint.decode(new ChunkCheckpoint(null, null, null).encode("s")).orElseThrow();
        assertNull(read.reader());
        assertNull(read.writer());
        assertNull(read.persistentUserData());
    }

    @Test
    void anotherStepKindsCheckpointIsNone() {
        Checkpoint nativeReader = Checkpoint.of(ByteBuffer.allocate(Long.BYTES).putLong(500).array());
        assertTrue(ChunkCheckpoint.decode(nativeReader).isEmpty());
        assertNull(PersistentUserData.of(Optional.of(nativeReader)));
        assertNull(PersistentUserData.of(Optional.empty()));
        // a batchlet step's checkpoint is its persistent user data alone
        Checkpoint batchlet = PersistentUserData.checkpoint("batchlet data", "s");
        assertTrue(ChunkCheckpoint.decode(batchlet).isEmpty());
        assertEquals("batchlet data", PersistentUserData.of(Optional.of(batchlet)));
    }

    @Test
    void aCheckpointOverTheKernelsBoundIsRefusedSayingWhatItHolds() {
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> new ChunkCheckpoint(0, new byte[Checkpoint.MAX_LENGTH], null).encode("step load of job nightly"));
        assertTrue(refused.getMessage().startsWith("the checkpoint of step load of job nightly is "), refused.getMessage());
        assertTrue(refused.getMessage().contains("more than the 65536 bytes a checkpoint may hold"), refused.getMessage());
    }
}
