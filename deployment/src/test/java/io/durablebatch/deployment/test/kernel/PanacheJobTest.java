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
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.deployment.test.panache.Ticket;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.item.ItemWriter;
import io.durablebatch.item.jdbc.SortKey;
import io.durablebatch.item.jpa.JpaItemWriter;
import io.durablebatch.item.jpa.JpaKeysetItemReader;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.operator.JobParameters;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A Panache job end to end: a chunk step over an active-record Panache entity, read by the JPA keyset
 * reader, changed by a processor, merged by the JPA writer in the chunk's transaction. Stopped in the middle and restarted, it
 * changes every
 * entity exactly once: the restart reads on after the key its last chunk committed.
 */
class PanacheJobTest extends KernelTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, KernelTest.class,
                    KernelTestSupport.class, Ticket.class, Jobs.class))
            .overrideConfigKey("quarkus.hibernate-orm.schema-management.strategy", "drop-and-create");

    static final int TICKETS = 1200;
    static final int CHUNK = 20;

    @Singleton
    static class Jobs {

        /**
         * Closes each ticket of a queue once ({@code new} becomes {@code new!}), slowly enough to be
         * stopped: a Panache entity read by keyset pages and merged in each chunk's transaction.
         */
        @Produces
        JobDefinition closeTickets() {
            return Job.named("closeTickets")
                    .start(chunk("close", CHUNK)
                            .reader(context -> JpaKeysetItemReader.builder(Ticket.class)
                                    .entityManager(Ticket.getEntityManager())
                                    .select("t").from("Ticket t").where("t.queue = :queue")
                                    .parameter("queue", context.parameters().string("queue"))
                                    .sortKey(SortKey.longKey("t.id")).pageSize(50).build())
                            .processor((Ticket ticket) -> {
                                ticket.state += "!";
                                return ticket;
                            })
                            .writer(context -> slowly(JpaItemWriter.<Ticket> merging(Ticket.getEntityManager())))
                            .build())
                    .build();
        }

        private static ItemWriter<Ticket> slowly(ItemWriter<Ticket> writer) {
            return items -> {
                Thread.sleep(10);
                writer.write(items);
            };
        }
    }

    @Test
    void stoppedInTheMiddleAndRestartedItChangesEveryEntityExactlyOnce() throws Exception {
        String queue = "jpa-" + ThreadLocalRandom.current().nextLong(Long.MAX_VALUE);
        List<Ticket> tickets = new ArrayList<>();
        for (int i = 0; i < TICKETS; i++) {
            Ticket ticket = new Ticket();
            ticket.queue = queue;
            ticket.state = "new";
            tickets.add(ticket);
        }
        QuarkusTransaction.requiringNew().run(() -> Ticket.persist(tickets));

        JobExecutionId id = operator.start("closeTickets", JobParameters.of("queue", queue), call());
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (states(queue).getOrDefault("new!", 0L) < 200) {
            assertTrue(System.nanoTime() < deadline, "the step never got going: " + states(queue));
            Thread.sleep(10);
        }
        operator.stop(id, call());
        JobExecution stopped = operator.await(id, Duration.ofSeconds(30));
        assertEquals(ExecutionStatus.STOPPED, stopped.status());
        long before = states(queue).getOrDefault("new!", 0L);
        assertTrue(before > 0 && before < TICKETS, "stopped in the middle, after " + before);
        assertEquals(0, before % CHUNK, "at a chunk boundary");

        JobExecution restarted = operator.await(operator.restart(id, call()), Duration.ofMinutes(1));
        assertEquals(ExecutionStatus.COMPLETED, restarted.status());
        assertEquals(Map.of("new!", (long) TICKETS), states(queue), "every ticket changed once");
    }

    /** How many tickets of the queue are in each state. */
    private static Map<String, Long> states(String queue) {
        return QuarkusTransaction.requiringNew().call(() -> Ticket.<Ticket> list("queue", queue).stream()
                .collect(Collectors.groupingBy(ticket -> ticket.state, Collectors.counting())));
    }
}
