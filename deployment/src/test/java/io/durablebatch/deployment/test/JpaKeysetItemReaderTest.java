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
 * The JPA keyset reader: entities in key order, page by page, never more than a page of them in the
 * persistence context, restartable exactly after the last key a checkpoint holds; a checkpoint of
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
    void readsEveryMatchingEntityInKeyOrderKeepingOnePageManaged() {
        String customer = freshCustomer();
        List<Long> ids = given(customer, 250);
        JpaKeysetItemReader<ItemOrder> reader = reader(customer, 40);
        List<Long> read = QuarkusTransaction.requiringNew().call(() -> {
            reader.open(Optional.empty());
            List<ItemOrder> items = new ArrayList<>();
            for (ItemOrder item = reader.read(); item != null; item = reader.read()) {
                items.add(item);
                if (items.size() == 41) {
                    // the second page is loaded: the first one left the persistence context
                    assertFalse(entityManager.contains(items.get(0)));
                    assertTrue(entityManager.contains(items.get(40)));
                }
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
