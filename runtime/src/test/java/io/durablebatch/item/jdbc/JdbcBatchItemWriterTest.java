package io.durablebatch.item.jdbc;

import static io.durablebatch.item.jdbc.TestDatabase.execute;
import static io.durablebatch.item.jdbc.TestDatabase.queryLong;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.SQLException;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.durablebatch.item.jdbc.TestDatabase.CountingDataSource;

class JdbcBatchItemWriterTest {

    record Payload(long id, String text) {
    }

    private final CountingDataSource dataSource = new CountingDataSource(TestDatabase.dataSource());
    private final String table = "items_batch_" + UUID.randomUUID().toString().replace("-", "");

    @BeforeEach
    void createTable() throws SQLException {
        execute(dataSource, "CREATE TABLE " + table + " (id bigint PRIMARY KEY, payload text NOT NULL)");
    }

    @AfterEach
    void dropTable() throws SQLException {
        execute(dataSource, "DROP TABLE IF EXISTS " + table);
    }

    @Test
    void writesExactlyTheChunkWithOneExecuteBatch() throws Exception {
        List<Payload> chunk = payloads(1, 100);
        int connectionsBefore = dataSource.connections();
        inserts(dataSource).write(chunk);
        assertEquals(1, dataSource.connections() - connectionsBefore);
        assertEquals(100, dataSource.calls("addBatch"));
        assertEquals(1, dataSource.calls("executeBatch"));
        assertEquals(0, dataSource.calls("executeUpdate") + dataSource.calls("execute"));
        assertEquals(100, queryLong(dataSource, "SELECT count(*) FROM " + table));
        assertEquals(LongStream.rangeClosed(1, 100).sum(), queryLong(dataSource, "SELECT sum(id) FROM " + table
                + " WHERE payload = 'payload ' || id"));
    }

    @Test
    void worksWithTheDriversRewrittenBatchInserts() throws Exception {
        CountingDataSource rewriting = new CountingDataSource(TestDatabase.dataSource());
        rewriting.setReWriteBatchedInserts(true);
        // update counts of a rewritten batch are SUCCESS_NO_INFO, which the assertion accepts
        inserts(rewriting).write(payloads(1, 250));
        assertEquals(1, rewriting.calls("executeBatch"));
        assertEquals(250, queryLong(dataSource, "SELECT count(*) FROM " + table));
    }

    @Test
    void anItemThatChangesNoRowFailsTheChunkWhenUpdatesAreAsserted() throws Exception {
        inserts(dataSource).write(payloads(1, 3));
        JdbcBatchItemWriter.Builder<Payload> updates = JdbcBatchItemWriter.<Payload> builder().dataSource(dataSource)
                .sql("UPDATE " + table + " SET payload = ? WHERE id = ?")
                .setter((statement, item) -> {
                    statement.setString(1, item.text());
                    statement.setLong(2, item.id());
                });
        List<Payload> secondIsMissing = List.of(new Payload(1, "u"), new Payload(99, "u"), new Payload(3, "u"));
        ItemNotWrittenException e = assertThrows(ItemNotWrittenException.class,
                () -> updates.build().write(secondIsMissing));
        assertEquals(1, e.itemIndex());
        assertEquals("item 2 of the chunk changed no row: UPDATE " + table + " SET payload = ? WHERE id = ?",
                e.getMessage());
        updates.assertUpdates(false).build().write(secondIsMissing);
        assertEquals(2, queryLong(dataSource, "SELECT count(*) FROM " + table + " WHERE payload = 'u'"));
    }

    @Test
    void anEmptyChunkTouchesNoConnection() throws Exception {
        int before = dataSource.connections();
        inserts(dataSource).write(List.of());
        assertEquals(before, dataSource.connections());
    }

    @Test
    void builderRefusalsNameTheField() {
        assertEquals("setter must not be null", assertThrows(IllegalArgumentException.class,
                () -> JdbcBatchItemWriter.<Payload> builder().dataSource(dataSource).sql("SELECT 1").build())
                .getMessage());
        assertEquals("sql must not be blank", assertThrows(IllegalArgumentException.class,
                () -> JdbcBatchItemWriter.<Payload> builder().sql("")).getMessage());
    }

    private JdbcBatchItemWriter<Payload> inserts(CountingDataSource target) {
        return JdbcBatchItemWriter.<Payload> builder().dataSource(target)
                .sql("INSERT INTO " + table + " (id, payload) VALUES (?, ?)")
                .setter((statement, item) -> {
                    statement.setLong(1, item.id());
                    statement.setString(2, item.text());
                }).build();
    }

    private static List<Payload> payloads(long from, long to) {
        return LongStream.rangeClosed(from, to).mapToObj(id -> new Payload(id, "payload " + id))
                .collect(Collectors.toList());
    }
}
