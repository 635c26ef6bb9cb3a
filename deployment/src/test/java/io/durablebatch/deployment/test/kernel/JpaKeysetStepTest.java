package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.deployment.test.kernel.KernelTestSupport.call;
import static io.durablebatch.job.Steps.chunk;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.persistence.EntityManager;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.ItemOrder;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.item.ItemWriter;
import io.durablebatch.item.jdbc.SortKey;
import io.durablebatch.item.jpa.JpaItemWriter;
import io.durablebatch.item.jpa.JpaKeysetItemReader;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.JobParameters;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A chunk step over entities: read by the JPA keyset reader, changed by a processor, merged by the
 * JPA writer in the chunk's transaction. Stopped in the middle and restarted, it changes every
 * entity exactly once: the restart reads on after the key its last chunk committed.
 */
class JpaKeysetStepTest extends KernelTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, KernelTest.class,
                    KernelTestSupport.class, ItemOrder.class, Jobs.class))
            .overrideConfigKey("quarkus.hibernate-orm.schema-management.strategy", "drop-and-create");

    static final int ORDERS = 1200;
    static final int CHUNK = 20;

    @Singleton
    static class Jobs {
        @Inject
        EntityManager entityManager;

        /** Marks each order of a run once ({@code run} becomes {@code run!}), slowly enough to be stopped. */
        @Produces
        JobDefinition mark() {
            return Job.named("markOrders")
                    .start(chunk("mark", CHUNK)
                            .reader(context -> JpaKeysetItemReader.builder(ItemOrder.class).entityManager(entityManager)
                                    .select("o").from("ItemOrder o").where("o.customer like :run")
                                    .parameter("run", context.parameters().string("run") + "%")
                                    .sortKey(SortKey.longKey("o.id")).pageSize(50).build())
                            .processor((ItemOrder order) -> new ItemOrder(order.getId(), order.getCustomer() + "!"))
                            .writer(context -> slowly(JpaItemWriter.<ItemOrder> merging(entityManager)))
                            .build())
                    .build();
        }

        private static ItemWriter<ItemOrder> slowly(ItemWriter<ItemOrder> writer) {
            return items -> {
                Thread.sleep(10);
                writer.write(items);
            };
        }
    }

    @Inject
    EntityManager entityManager;

    @Test
    void stoppedInTheMiddleAndRestartedItChangesEveryEntityExactlyOnce() throws Exception {
        String run = "jpa-" + ThreadLocalRandom.current().nextLong(Long.MAX_VALUE);
        long base = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE / 4);
        List<ItemOrder> orders = new ArrayList<>();
        for (int i = 0; i < ORDERS; i++) {
            orders.add(new ItemOrder(base + i, run));
        }
        QuarkusTransaction.requiringNew().run(() -> JpaItemWriter.<ItemOrder> persisting(entityManager).write(orders));

        JobExecutionId id = operator.start("markOrders", JobParameters.of("run", run), call());
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (marked(run).getOrDefault(run + "!", 0L) < 200) {
            assertTrue(System.nanoTime() < deadline, "the step never got going: " + marked(run));
            Thread.sleep(10);
        }
        operator.stop(id, call());
        JobExecution stopped = operator.await(id, Duration.ofSeconds(30));
        assertEquals(ExecutionStatus.STOPPED, stopped.status());
        long before = marked(run).getOrDefault(run + "!", 0L);
        assertTrue(before > 0 && before < ORDERS, "stopped in the middle, after " + before);
        assertEquals(0, before % CHUNK, "at a chunk boundary");

        JobExecution restarted = operator.await(operator.restart(id, call()), Duration.ofMinutes(1));
        assertEquals(ExecutionStatus.COMPLETED, restarted.status());
        assertEquals(Map.of(run + "!", (long) ORDERS), marked(run), "every order changed once");
    }

    /** How many orders of the run have each customer value. */
    private Map<String, Long> marked(String run) {
        return QuarkusTransaction.requiringNew().call(() -> entityManager
                .createQuery("select o.customer from ItemOrder o where o.customer like :run", String.class)
                .setParameter("run", run + "%").getResultList().stream()
                .collect(Collectors.groupingBy(customer -> customer, Collectors.counting())));
    }
}
