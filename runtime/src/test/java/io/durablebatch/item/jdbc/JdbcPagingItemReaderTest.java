package io.durablebatch.item.jdbc;

import static io.durablebatch.item.jdbc.TestDatabase.execute;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.durablebatch.execution.Checkpoint;
import io.durablebatch.item.jdbc.TestDatabase.CountingDataSource;

class JdbcPagingItemReaderTest {

    record Row(long id, String name) {
    }

    private final CountingDataSource dataSource = new CountingDataSource(TestDatabase.dataSource());
    private final String table = "items_paging_" + UUID.randomUUID().toString().replace("-", "");

    @BeforeEach
    void createTable() throws SQLException {
        execute(dataSource, "CREATE TABLE " + table + " (id bigint PRIMARY KEY, name text NOT NULL, tag text)");
    }

    @AfterEach
    void dropTable() throws SQLException {
        execute(dataSource, "DROP TABLE IF EXISTS " + table);
    }

    @Test
    void readsEveryRowInKeyOrderAcrossPageBoundariesWithOneQueryPerPage() throws Exception {
        List<Long> ids = insertShuffled(23);
        JdbcPagingItemReader<Row> reader = rows(5).build();
        int before = dataSource.connections();
        assertEquals(ids, readIds(reader, Optional.empty()));
        // pages of 5, 5, 5, 5 and 3 rows: the short page is the last, no query finds it empty
        assertEquals(5, dataSource.connections() - before);
    }

    @Test
    void anExactMultipleOfThePageSizeEndsWithOneEmptyPage() throws Exception {
        List<Long> ids = insertShuffled(10);
        int before = dataSource.connections();
        assertEquals(ids, readIds(rows(5).build(), Optional.empty()));
        assertEquals(3, dataSource.connections() - before);
    }

    @Test
    void restartFromAnyCheckpointReadsExactlyTheRowsAfterTheLastKeyRead() throws Exception {
        List<Long> ids = insertShuffled(17);
        JdbcPagingItemReader<Row> first = rows(4).build();
        first.open(Optional.empty());
        List<Checkpoint> checkpoints = new ArrayList<>(List.of(first.checkpoint()));
        while (first.read() != null) {
            checkpoints.add(first.checkpoint());
        }
        first.close();
        for (int done = 0; done < checkpoints.size(); done++) {
            assertEquals(ids.subList(done, ids.size()), readIds(rows(4).build(), Optional.of(checkpoints.get(done))),
                    "restart after " + done + " rows");
        }
    }

    @Test
    void restartResumesAfterTheKeyNotAtAnOffsetSoDeletedRowsDoNotShiftIt() throws Exception {
        List<Long> ids = insertShuffled(12);
        JdbcPagingItemReader<Row> first = rows(5).build();
        first.open(Optional.empty());
        for (int i = 0; i < 6; i++) {
            first.read();
        }
        Checkpoint afterSix = first.checkpoint();
        first.close();
        execute(dataSource, "DELETE FROM " + table + " WHERE id IN (" + ids.get(0) + ", " + ids.get(1) + ", "
                + ids.get(2) + ")");
        assertEquals(ids.subList(6, ids.size()), readIds(rows(5).build(), Optional.of(afterSix)));
    }

    @Test
    void filtersWithAWhereClauseAndItsParametersAndCountsWhenAsked() throws Exception {
        execute(dataSource, "INSERT INTO " + table + " SELECT i, 'n' || i, CASE WHEN i % 3 = 0 THEN 'keep' END "
                + "FROM generate_series(1, 30) i");
        JdbcPagingItemReader<Row> reader = rows(4).where("tag = ? AND id <= ?", "keep", 25L).count(true).build();
        List<Long> read = readIds(reader, Optional.empty());
        assertEquals(List.of(3L, 6L, 9L, 12L, 15L, 18L, 21L, 24L), read);
        assertEquals(OptionalLong.of(8), reader.size());
        assertEquals(OptionalLong.empty(), rows(4).build().size());
    }

    @Test
    void pagesOnTextAndUuidKeys() throws Exception {
        execute(dataSource,
                "INSERT INTO " + table + " SELECT i, 'name-' || lpad(i::text, 3, '0') FROM generate_series(1, 9) i");
        JdbcPagingItemReader<String> byName = JdbcPagingItemReader.<String> builder().dataSource(dataSource)
                .select("name").from(table).sortKey(SortKey.textKey("name")).pageSize(2)
                .mapper(row -> row.getString("name")).build();
        byName.open(Optional.empty());
        byName.read();
        byName.read();
        byName.read();
        Checkpoint afterThree = byName.checkpoint();
        byName.close();
        byName.open(Optional.of(afterThree));
        assertEquals("name-004", byName.read());

        String uuids = table + "_uuid";
        try {
            execute(dataSource, "CREATE TABLE " + uuids + " (id uuid PRIMARY KEY)",
                    "INSERT INTO " + uuids + " SELECT gen_random_uuid() FROM generate_series(1, 7)");
            JdbcPagingItemReader<UUID> byUuid = JdbcPagingItemReader.<UUID> builder().dataSource(dataSource)
                    .select("t.id").from(uuids + " t").sortKey(SortKey.uuidKey("t.id")).pageSize(3)
                    .mapper(row -> row.getObject("id", UUID.class)).build();
            byUuid.open(Optional.empty());
            List<UUID> all = new ArrayList<>();
            List<Checkpoint> checkpoints = new ArrayList<>();
            for (UUID id = byUuid.read(); id != null; id = byUuid.read()) {
                all.add(id);
                checkpoints.add(byUuid.checkpoint());
            }
            assertEquals(7, all.size());
            byUuid.open(Optional.of(checkpoints.get(3)));
            assertEquals(all.get(4), byUuid.read());
        } finally {
            execute(dataSource, "DROP TABLE IF EXISTS " + uuids);
        }
    }

    @Test
    void refusesANonUniqueSortKeyInsteadOfLosingRowsAtAPageBoundary() throws Exception {
        execute(dataSource, "INSERT INTO " + table + " VALUES (1, 'same'), (2, 'same'), (3, 'other')");
        JdbcPagingItemReader<String> byName = JdbcPagingItemReader.<String> builder().dataSource(dataSource)
                .select("name").from(table).sortKey(SortKey.textKey("name")).pageSize(10)
                .mapper(row -> row.getString("name")).build();
        byName.open(Optional.empty());
        IllegalStateException e = assertThrows(IllegalStateException.class, byName::read);
        assertEquals("sort key name is not unique: two rows have same", e.getMessage());
    }

    @Test
    void refusesACheckpointOfAnotherKeyType() throws Exception {
        insertShuffled(3);
        JdbcPagingItemReader<Row> reader = rows(2).build();
        reader.open(Optional.empty());
        reader.read();
        Checkpoint longKey = reader.checkpoint();
        JdbcPagingItemReader<String> byName = JdbcPagingItemReader.<String> builder().dataSource(dataSource)
                .select("name").from(table).sortKey(SortKey.textKey("name")).mapper(row -> row.getString("name"))
                .build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> byName.open(Optional.of(longKey)));
        assertTrue(e.getMessage().endsWith("it holds no text key name"), e.getMessage());
    }

    @Test
    void anEmptyTableReadsNothingAndItsCheckpointRestartsFromTheStart() throws Exception {
        JdbcPagingItemReader<Row> reader = rows(5).build();
        reader.open(Optional.empty());
        assertNull(reader.read());
        Checkpoint empty = reader.checkpoint();
        execute(dataSource, "INSERT INTO " + table + " VALUES (1, 'late')");
        assertEquals(List.of(1L), readIds(rows(5).build(), Optional.of(empty)));
    }

    @Test
    void builderRefusalsNameTheField() {
        assertEquals("sortKey must not be null", assertThrows(IllegalArgumentException.class,
                () -> JdbcPagingItemReader.<Row> builder().dataSource(dataSource).select("id").from(table)
                        .mapper(row -> null).build())
                .getMessage());
        assertEquals("from must not be blank", assertThrows(IllegalArgumentException.class,
                () -> JdbcPagingItemReader.<Row> builder().from(" ")).getMessage());
        assertEquals("pageSize must be positive, got 0", assertThrows(IllegalArgumentException.class,
                () -> JdbcPagingItemReader.<Row> builder().pageSize(0)).getMessage());
        assertEquals("sortKey column must be an identifier, optionally qualified by a table, got 'id; drop'",
                assertThrows(IllegalArgumentException.class, () -> SortKey.longKey("id; drop")).getMessage());
    }

    private JdbcPagingItemReader.Builder<Row> rows(int pageSize) {
        return JdbcPagingItemReader.<Row> builder().dataSource(dataSource).select("id, name").from(table)
                .sortKey(SortKey.longKey("id")).pageSize(pageSize)
                .mapper(row -> new Row(row.getLong("id"), row.getString("name")));
    }

    /** Inserts rows with gaps between their ids, in random order; returns the ids in key order. */
    private List<Long> insertShuffled(int count) throws SQLException {
        List<Long> ids = LongStream.rangeClosed(1, count).map(i -> i * 7).boxed().collect(Collectors.toList());
        List<Long> shuffled = new ArrayList<>(ids);
        Collections.shuffle(shuffled);
        execute(dataSource, "INSERT INTO " + table + " (id, name) VALUES " + shuffled.stream()
                .map(id -> "(" + id + ", 'row " + id + "')").collect(Collectors.joining(", ")));
        return ids;
    }

    private static List<Long> readIds(JdbcPagingItemReader<Row> reader, Optional<Checkpoint> checkpoint) throws Exception {
        reader.open(checkpoint);
        List<Long> ids = new ArrayList<>();
        for (Row row = reader.read(); row != null; row = reader.read()) {
            ids.add(row.id());
        }
        reader.close();
        return ids;
    }
}
