package io.durablebatch.deployment.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.item.jdbc.JdbcBatchItemWriter;
import io.durablebatch.item.jpa.JpaItemWriter;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The writers that share the chunk's JTA transaction: their writes commit or roll back with it,
 * and a JPA chunk is flushed inside it.
 */
class ItemWritersInTransactionTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(ItemOrder.class, RepositoryTestSupport.class))
            .overrideConfigKey("quarkus.hibernate-orm.schema-management.strategy", "drop-and-create");

    /** Thrown by a unit of work to roll its transaction back, as a failing chunk does. */
    static final class ChunkFailed extends RuntimeException {
        private static final long serialVersionUID = 1L;
    }

    @Inject
    EntityManager entityManager;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void persistingWriterFlushesTheChunkInsideTheTransaction() {
        long id = freshId();
        JpaItemWriter<ItemOrder> writer = JpaItemWriter.persisting(entityManager);
        long visibleBeforeCommit = QuarkusTransaction.requiringNew().call(() -> {
            writer.write(List.of(new ItemOrder(id, "ann"), new ItemOrder(id + 1, "bob"), new ItemOrder(id + 2, "cid")));
            // the transaction's own connection sees the rows: the writer flushed, the commit did not
            return countRows(id, id + 2);
        });
        assertEquals(3, visibleBeforeCommit);
        assertEquals(3, QuarkusTransaction.requiringNew().call(() -> countRows(id, id + 2)));
    }

    @Test
    void aConstraintViolationFailsTheWriteNotTheCommitAndNothingIsWritten() {
        long id = freshId();
        JpaItemWriter<ItemOrder> writer = JpaItemWriter.persisting(entityManager);
        QuarkusTransaction.requiringNew().run(() -> writer.write(List.of(new ItemOrder(id, "first"))));
        assertThrows(PersistenceException.class, () -> QuarkusTransaction.requiringNew().run(
                () -> writer.write(List.of(new ItemOrder(id + 1, "new"), new ItemOrder(id, "duplicate")))));
        assertEquals(1, QuarkusTransaction.requiringNew().call(() -> countRows(id, id + 1)));
    }

    @Test
    void mergingWriterUpdatesExistingEntitiesAndInsertsNewOnes() {
        long id = freshId();
        QuarkusTransaction.requiringNew().run(
                () -> JpaItemWriter.<ItemOrder> persisting(entityManager).write(List.of(new ItemOrder(id, "old"))));
        JpaItemWriter<ItemOrder> writer = JpaItemWriter.merging(entityManager);
        QuarkusTransaction.requiringNew().run(
                () -> writer.write(List.of(new ItemOrder(id, "updated"), new ItemOrder(id + 1, "inserted"))));
        QuarkusTransaction.requiringNew().run(() -> {
            assertEquals("updated", entityManager.find(ItemOrder.class, id).getCustomer());
            assertEquals("inserted", entityManager.find(ItemOrder.class, id + 1).getCustomer());
        });
    }

    @Test
    void theWriterClearsThePersistenceContextAfterTheChunkUnlessToldNotTo() {
        long id = freshId();
        ItemOrder cleared = new ItemOrder(id, "a");
        ItemOrder kept = new ItemOrder(id + 1, "b");
        QuarkusTransaction.requiringNew().run(() -> {
            JpaItemWriter.<ItemOrder> persisting(entityManager).write(List.of(cleared));
            assertFalse(entityManager.contains(cleared));
            JpaItemWriter.<ItemOrder> persisting(entityManager).clearAfterFlush(false).write(List.of(kept));
            assertTrue(entityManager.contains(kept));
        });
    }

    @Test
    void jdbcBatchWriterCommitsAndRollsBackWithTheChunkTransaction() throws SQLException {
        String table = "items_jta_" + freshId();
        execute("CREATE TABLE " + table + " (id bigint PRIMARY KEY)");
        try {
            JdbcBatchItemWriter<Long> writer = JdbcBatchItemWriter.<Long> builder().dataSource(dataSource)
                    .sql("INSERT INTO " + table + " (id) VALUES (?)")
                    .setter((statement, id) -> statement.setLong(1, id)).build();
            QuarkusTransaction.requiringNew().run(() -> write(writer, List.of(1L, 2L)));
            assertThrows(ChunkFailed.class, () -> QuarkusTransaction.requiringNew().run(() -> {
                write(writer, List.of(3L, 4L));
                throw new ChunkFailed();
            }));
            assertEquals(List.of(1L, 2L), QuarkusTransaction.requiringNew().call(
                    () -> entityManager.createNativeQuery("SELECT id FROM " + table + " ORDER BY id", Long.class)
                            .getResultList()));
        } finally {
            execute("DROP TABLE " + table);
        }
    }

    private static long freshId() {
        return ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE / 2) & ~0xFL;
    }

    private static void write(JdbcBatchItemWriter<Long> writer, List<Long> ids) {
        try {
            writer.write(ids);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private long countRows(long fromId, long toId) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(
                        "SELECT count(*) FROM items_jpa_order WHERE id BETWEEN ? AND ?")) {
            statement.setLong(1, fromId);
            statement.setLong(2, toId);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private void execute(String sql) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
