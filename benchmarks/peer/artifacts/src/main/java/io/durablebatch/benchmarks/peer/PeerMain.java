package io.durablebatch.benchmarks.peer;

import java.util.Optional;
import java.util.Properties;
import java.util.Set;

import javax.sql.DataSource;

import jakarta.batch.operations.JobOperator;
import jakarta.batch.runtime.BatchStatus;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionManager;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.annotations.QuarkusMain;

/**
 * The peer benchmark's command in a Quarkus application: the workloads of {@link PeerWorkloads} through
 * {@code jakarta.batch.operations.JobOperator}, whichever batch runtime the application is built with,
 * or through the application's other {@link PeerLaunches} ({@code peer.api}).
 */
@QuarkusMain
public class PeerMain implements QuarkusApplication {

    private static final Set<BatchStatus> ENDED = Set.of(BatchStatus.COMPLETED, BatchStatus.FAILED,
            BatchStatus.STOPPED, BatchStatus.ABANDONED);

    @Inject
    JobOperator operator;

    @Inject
    DataSource dataSource;

    @ConfigProperty(name = "peer.runtime")
    String runtime;

    /** What the application has besides the batch runtime (benchmarks/peer/app-entity), appended to its runs' label. */
    @ConfigProperty(name = "peer.variant")
    Optional<String> variant;

    @ConfigProperty(name = "peer.items", defaultValue = "1000000")
    long items;

    @ConfigProperty(name = "peer.warmup-items", defaultValue = "50000")
    long warmupItems;

    @ConfigProperty(name = "peer.launches", defaultValue = "2000")
    int launches;

    @ConfigProperty(name = "peer.warmup-launches", defaultValue = "200")
    int warmupLaunches;

    /** The callers of {@code launches-concurrent}. */
    @ConfigProperty(name = "peer.threads", defaultValue = "8")
    int threads;

    @ConfigProperty(name = "peer.stats", defaultValue = "false")
    boolean stats;

    /**
     * {@code jakarta} (the Jakarta Batch operator), {@code native} (the application's {@link PeerLaunches}) or
     * {@code bare} (the chunk workload without a batch runtime).
     */
    @ConfigProperty(name = "peer.api", defaultValue = "jakarta")
    String api;

    @Inject
    Instance<PeerLaunches> otherApi;

    /** For {@code peer.api=bare}: the chunk workload's ceiling, without a batch runtime ({@link BareChunks}). */
    @Inject
    Instance<TransactionManager> transactions;

    @Override
    public int run(String... args) throws Exception {
        String workload = args.length == 0 ? "oneshot" : args[0];
        String label = (api.equals("jakarta") ? runtime : runtime.replace("jakarta", api))
                + variant.map(added -> "+" + added).orElse("");
        PeerLaunches through = switch (api) {
            case "jakarta" -> new JakartaLaunches();
            case "bare" -> new BareChunks(dataSource, transactions.get());
            default -> otherApi.get();
        };
        new PeerWorkloads(dataSource, through,
                new PeerWorkloads.Sizes(items, warmupItems, launches, warmupLaunches, threads, stats))
                .run(label, workload);
        return 0;
    }

    /** Starts a job through Jakarta Batch and polls {@code getJobExecution} until it ended. */
    private final class JakartaLaunches implements PeerLaunches {

        @Override
        public long launchAndAwait(String job, Properties parameters) throws Exception {
            return launchAndAwait(job, parameters, 1);
        }

        @Override
        public long launchAndAwait(String job, Properties parameters, long pollMillis) throws Exception {
            long id = operator.start(job, parameters);
            while (!ENDED.contains(operator.getJobExecution(id).getBatchStatus())) {
                Thread.sleep(pollMillis);
            }
            return id;
        }

        @Override
        public boolean completed(long id) {
            return operator.getJobExecution(id).getBatchStatus() == BatchStatus.COMPLETED;
        }
    }
}
