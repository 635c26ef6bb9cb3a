package io.durablebatch.deployment.test;

import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.LongStream;

import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.execution.Checkpoint;
import io.durablebatch.item.jdbc.SortKey;
import io.durablebatch.item.jpa.JpaItemWriter;
import io.durablebatch.item.jpa.JpaKeysetItemReader;
import io.durablebatch.item.support.CheckpointFormat;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The JPA keyset reader: entities in key order, page by page, returned detached (so a long
 * transaction's persistence context does not grow, and a merged change is written), restartable exactly after the last key a
 * checkpoint holds; a checkpoint of
 * another reader or key type, a sort key that is not unique and the reader's own parameter name are
 * refused.
 */
class JpaKeysetItemReaderTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp(ItemOrder.class)
            .overrideConfigKey("quarkus.hibernate-orm.schema-management.strategy", "drop-and-create")
            .overrideConfigKey("quarkus.durable-batch.lease.sweeper-enabled", "false");

    @Inject
    EntityManager entityManager;

    @Test
    void readsEveryMatchingEntityInKeyOrderReturningThemDetached() {
        String customer = freshCustomer();
        List<Long> ids = given(customer, 250);
        JpaKeysetItemReader<ItemOrder> reader = reader(customer, 40);
        List<Long> read = QuarkusTransaction.requiringNew().call(() -> {
            reader.open(Optional.empty());
            List<ItemOrder> items = new ArrayList<>();
            for (ItemOrder item = reader.read(); item != null; item = reader.read()) {
                items.add(item);
                // the persistence context holds none of them: it does not grow with the input
                assertFalse(entityManager.contains(item));
            }
            return items.stream().map(ItemOrder::getId).toList();
        });
        assertEquals(ids, read);
    }

    @Test
    void aRestartReadsExactlyWhatFollowsTheCheckpointsKey() {
        String customer = freshCustomer();
        List<Long> ids = given(customer, 130);
        JpaKeysetItemReader<ItemOrder> first = reader(customer, 50);
        List<Long> read = new ArrayList<>();
        Checkpoint committed = QuarkusTransaction.requiringNew().call(() -> {
            first.open(Optional.empty());
            for (int i = 0; i < 77; i++) {
                read.add(first.read().getId());
            }
            return first.checkpoint();
        });
        // a fresh reader, as a restart builds it, opened at the committed checkpoint
        JpaKeysetItemReader<ItemOrder> restarted = reader(customer, 50);
        QuarkusTransaction.requiringNew().run(() -> {
            restarted.open(Optional.of(committed));
            for (ItemOrder item = restarted.read(); item != null; item = restarted.read()) {
                read.add(item.getId());
            }
        });
        assertEquals(ids, read, "every entity once, in key order");
    }

    @Test
    void anEntityReadAndMergedInOneTransactionKeepsItsChange() {
        String customer = freshCustomer();
        given(customer, 3);
        JpaKeysetItemReader<ItemOrder> reader = reader(customer, 10);
        QuarkusTransaction.requiringNew().run(() -> {
            reader.open(Optional.empty());
            ItemOrder first = reader.read();
            JpaItemWriter.<ItemOrder> merging(entityManager).write(List.of(new ItemOrder(first.getId(), customer + "!")));
        });
        assertEquals(1L, QuarkusTransaction.requiringNew().call(() -> entityManager
                .createQuery("select count(o) from ItemOrder o where o.customer = :changed", Long.class)
                .setParameter("changed", customer + "!").getSingleResult()));
    }

    @Test
    void aProjectionIsReadLikeEntities() {
        String customer = freshCustomer();
        List<Long> ids = given(customer, 30);
        JpaKeysetItemReader<Long> reader = JpaKeysetItemReader.builder(Long.class).entityManager(entityManager)
                .select("o.id").from("ItemOrder o").where("o.customer = :customer").parameter("customer", customer)
                .sortKey(SortKey.longKey("o.id")).pageSize(7).build();
        List<Long> read = QuarkusTransaction.requiringNew().call(() -> {
            reader.open(Optional.empty());
            List<Long> values = new ArrayList<>();
            for (Long value = reader.read(); value != null; value = reader.read()) {
                values.add(value);
            }
            return values;
        });
        assertEquals(ids, read);
    }

    @Test
    void theCheckpointOfAnotherReaderOrKeyTypeIsRefused() {
        JpaKeysetItemReader<ItemOrder> reader = reader(freshCustomer(), 10);
        assertThrows(IllegalArgumentException.class,
                () -> reader.open(Optional.of(CheckpointFormat.JDBC_PAGING_READER.encode(new byte[] { 1 }))));
        byte[] textKey = SortKey.textKey("o.customer").encode("x");
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> reader.open(Optional.of(CheckpointFormat.JPA_KEYSET_READER.encode(textKey))));
        assertTrue(refused.getMessage().contains("o.id"), refused.getMessage());
    }

    @Test
    void aSortKeyThatIsNotUniqueIsRefusedInsteadOfLosingEntities() {
        String customer = freshCustomer();
        given(customer, 3);
        JpaKeysetItemReader<ItemOrder> byCustomer = JpaKeysetItemReader.builder(ItemOrder.class)
                .entityManager(entityManager).select("o").from("ItemOrder o").where("o.customer = :customer")
                .parameter("customer", customer).sortKey(SortKey.textKey("o.customer")).build();
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> QuarkusTransaction.requiringNew().run(() -> {
                    byCustomer.open(Optional.empty());
                    byCustomer.read();
                }));
        assertTrue(refused.getMessage().contains("not unique"), refused.getMessage());
    }

    @Test
    void theReadersOwnParameterNameIsRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> JpaKeysetItemReader.builder(ItemOrder.class).parameter("durableBatchLastKey", 1L));
    }

    private JpaKeysetItemReader<ItemOrder> reader(String customer, int pageSize) {
        return JpaKeysetItemReader.builder(ItemOrder.class).entityManager(entityManager).select("o")
                .from("ItemOrder o").where("o.customer = :customer").parameter("customer", customer)
                .sortKey(SortKey.longKey("o.id")).pageSize(pageSize).build();
    }

    /** {@code count} orders of {@code customer}, interleaved with orders of another; returns their ids in order. */
    private List<Long> given(String customer, int count) {
        long base = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE / 4);
        List<ItemOrder> orders = new ArrayList<>();
        List<Long> ids = new ArrayList<>();
        LongStream.range(0, count).forEach(i -> {
            orders.add(new ItemOrder(base + 2 * i, customer));
            orders.add(new ItemOrder(base + 2 * i + 1, customer + "-other"));
            ids.add(base + 2 * i);
        });
        QuarkusTransaction.requiringNew().run(() -> JpaItemWriter.<ItemOrder> persisting(entityManager).write(orders));
        return ids;
    }

    private static String freshCustomer() {
        return "keyset-" + ThreadLocalRandom.current().nextLong(Long.MAX_VALUE);
    }
}
