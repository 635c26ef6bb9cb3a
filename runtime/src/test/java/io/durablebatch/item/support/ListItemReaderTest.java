package io.durablebatch.item.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

import io.durablebatch.execution.Checkpoint;

class ListItemReaderTest {

    @Test
    void readsTheItemsInOrderThenNull() {
        ListItemReader<String> reader = ListItemReader.of(List.of("a", "b", "c"));
        reader.open(Optional.empty());
        assertEquals(OptionalLong.of(3), reader.size());
        assertEquals(List.of("a", "b", "c"), drain(reader));
        assertNull(reader.read());
    }

    @Test
    void restartFromACheckpointReadsExactlyTheItemsAfterIt() {
        List<String> items = List.of("a", "b", "c", "d");
        ListItemReader<String> first = ListItemReader.of(items);
        first.open(Optional.empty());
        List<Checkpoint> checkpoints = new ArrayList<>(List.of(first.checkpoint()));
        while (first.read() != null) {
            checkpoints.add(first.checkpoint());
        }
        for (int done = 0; done < checkpoints.size(); done++) {
            ListItemReader<String> restarted = ListItemReader.of(items);
            restarted.open(Optional.of(checkpoints.get(done)));
            assertEquals(items.subList(done, items.size()), drain(restarted));
        }
    }

    @Test
    void copiesTheListSoLaterChangesDoNotMoveTheCheckpoints() {
        List<String> items = new ArrayList<>(List.of("a", "b"));
        ListItemReader<String> reader = ListItemReader.of(items);
        items.add(0, "z");
        reader.open(Optional.empty());
        assertEquals(List.of("a", "b"), drain(reader));
    }

    @Test
    void refusesNullItemsBadCheckpointsAndReadsBeforeOpen() {
        assertEquals("items must not contain null (null marks the end of input), found at 1",
                assertThrows(IllegalArgumentException.class, () -> ListItemReader.of(Arrays.asList("a", null)))
                        .getMessage());
        ListItemReader<String> reader = ListItemReader.of(List.of("a"));
        assertEquals("the list reader is not open", assertThrows(IllegalStateException.class, reader::read).getMessage());
        IllegalArgumentException beyond = assertThrows(IllegalArgumentException.class,
                () -> reader.open(Optional.of(CheckpointFormat.LIST_READER.encodeLongs(2))));
        assertTrue(beyond.getMessage().endsWith("index 2 is beyond the 1 items"), beyond.getMessage());
        IllegalArgumentException foreign = assertThrows(IllegalArgumentException.class,
                () -> reader.open(Optional.of(CheckpointFormat.DELIMITED_FILE_READER.encodeLongs(0, 0))));
        assertTrue(foreign.getMessage().contains("it was not written by a list reader"), foreign.getMessage());
    }

    private static List<String> drain(ListItemReader<String> reader) {
        List<String> read = new ArrayList<>();
        for (String item = reader.read(); item != null; item = reader.read()) {
            read.add(item);
        }
        return read;
    }
}
