package io.durablebatch.deployment.test.panache;

import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.execution.Checkpoint;
import io.durablebatch.item.ItemReader;
import io.durablebatch.item.jdbc.SortKey;
import io.durablebatch.item.jpa.JpaItemWriter;
import io.durablebatch.item.jpa.JpaKeysetItemReader;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The JPA items with both Panache styles: an active-record entity ({@code extends PanacheEntity},
 * its generated id as the sort key) and a plain entity behind a {@code PanacheRepository}, each read
 * page by page across a restart and written in the caller's transaction.
 */
class PanacheItemsTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp(Ticket.class, Parcel.class, Parcels.class)
            .overrideConfigKey("quarkus.hibernate-orm.schema-management.strategy", "drop-and-create")
            .overrideConfigKey("quarkus.durable-batch.lease.sweeper-enabled", "false");

    @Inject
    Parcels parcels;

    @Test
    void activeRecordEntitiesAreReadInIdOrderAcrossARestart() throws Exception {
        String queue = "queue-" + ThreadLocalRandom.current().nextLong(Long.MAX_VALUE);
        List<Ticket> tickets = IntStream.range(0, 90).mapToObj(i -> {
            Ticket ticket = new Ticket();
            ticket.queue = i % 3 == 0 ? queue + "-other" : queue;
            ticket.state = "new";
            return ticket;
        }).toList();
        QuarkusTransaction.requiringNew()
                .run(() -> JpaItemWriter.<Ticket> persisting(Ticket.getEntityManager()).write(tickets));
        List<Long> expected = tickets.stream().filter(ticket -> ticket.queue.equals(queue)).map(ticket -> ticket.id)
                .sorted().toList();

        List<Long> read = readAcrossARestart(() -> JpaKeysetItemReader.builder(Ticket.class)
                .entityManager(Ticket.getEntityManager()).select("t").from("Ticket t").where("t.queue = :queue")
                .parameter("queue", queue).sortKey(SortKey.longKey("t.id")).pageSize(16).build(), 25)
                .stream().map(ticket -> ticket.id).toList();
        assertEquals(expected, read);
        assertEquals(60, QuarkusTransaction.requiringNew().call(() -> Ticket.count("queue", queue)));
    }

    @Test
    void repositoryEntitiesAreReadAndMergedThroughTheRepositorysEntityManager() throws Exception {
        String route = "route-" + ThreadLocalRandom.current().nextLong(Long.MAX_VALUE);
        long base = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE / 4);
        List<Parcel> given = IntStream.range(0, 40).mapToObj(i -> {
            Parcel parcel = new Parcel();
            parcel.id = base + i;
            parcel.route = route;
            parcel.weight = i;
            return parcel;
        }).toList();
        QuarkusTransaction.requiringNew().run(() -> parcels.persist(given));

        List<Parcel> read = readAcrossARestart(() -> JpaKeysetItemReader.builder(Parcel.class)
                .entityManager(parcels.getEntityManager()).select("p").from("Parcel p").where("p.route = :route")
                .parameter("route", route).sortKey(SortKey.longKey("p.id")).pageSize(7).build(), 11);
        assertEquals(given.stream().map(parcel -> parcel.id).toList(), read.stream().map(parcel -> parcel.id).toList());

        read.forEach(parcel -> parcel.weight += 1000);
        QuarkusTransaction.requiringNew().run(() -> JpaItemWriter.<Parcel> merging(parcels.getEntityManager()).write(read));
        assertEquals(40, QuarkusTransaction.requiringNew()
                .call(() -> parcels.count("route = ?1 and weight >= 1000", route)));
    }

    /** Reads {@code first} items with one reader, then the rest with a new one opened at its checkpoint. */
    private static <T> List<T> readAcrossARestart(ReaderFactory<T> readers, int first) throws Exception {
        List<T> read = new ArrayList<>();
        ItemReader<T> reader = readers.create();
        Checkpoint committed = QuarkusTransaction.requiringNew().call(() -> {
            reader.open(Optional.empty());
            for (int i = 0; i < first; i++) {
                read.add(reader.read());
            }
            return reader.checkpoint();
        });
        ItemReader<T> restarted = readers.create();
        QuarkusTransaction.requiringNew().run(() -> {
            try {
                restarted.open(Optional.of(committed));
                for (T item = restarted.read(); item != null; item = restarted.read()) {
                    read.add(item);
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        return read;
    }

    @FunctionalInterface
    private interface ReaderFactory<T> {
        ItemReader<T> create();
    }
}
