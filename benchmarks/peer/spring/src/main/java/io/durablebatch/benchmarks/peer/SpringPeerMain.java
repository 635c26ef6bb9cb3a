package io.durablebatch.benchmarks.peer;

import java.util.Locale;

import javax.sql.DataSource;

import org.springframework.context.annotation.AnnotationConfigApplicationContext;

/**
 * The peer benchmark's command on Spring Batch: the workloads of {@link PeerWorkloads} through Spring
 * Batch's {@code JobOperator}, configured as {@link SpringPeerConfiguration} does. Its settings are the
 * same {@code peer.*} system properties as the Quarkus applications' ({@code -Dpeer.items=...}), the
 * workload its argument; {@code PEER_DB_URL} names the database.
 */
public final class SpringPeerMain {

    private SpringPeerMain() {
    }

    public static void main(String[] args) throws Exception {
        long started = System.nanoTime();
        String workload = args.length == 0 ? "oneshot" : args[0];
        try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext(
                SpringPeerConfiguration.class)) {
            // the line the peer benchmark's script reads, as it reads Quarkus' "started in"
            System.out.printf(Locale.ROOT, "peer-spring started in %.3fs%n", (System.nanoTime() - started) / 1e9);
            PeerWorkloads.Sizes sizes = new PeerWorkloads.Sizes(
                    Long.getLong("peer.items", 1_000_000),
                    Long.getLong("peer.warmup-items", 50_000),
                    Integer.getInteger("peer.launches", 2000),
                    Integer.getInteger("peer.warmup-launches", 200),
                    Integer.getInteger("peer.threads", 8),
                    Boolean.getBoolean("peer.stats"));
            new PeerWorkloads(context.getBean(DataSource.class), context.getBean(SpringLaunches.class), sizes)
                    .run("spring-batch", workload);
        }
    }
}
