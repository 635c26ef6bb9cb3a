package io.durablebatch.benchmarks;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.repository.partition.StepPartition;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * Aggregating a parent step over many completed partitions: each timed run rolls back, so that the
 * same parent is aggregated again, then one run commits.
 */
final class PartitionAggregateWorkload implements Workload {

    /** Partitions run to completion per unit of work while setting up. */
    private static final int SETUP_BATCH = 500;

    private final BenchmarkConfig.Partitions config;
    private final PartitionedJobs jobs;
    private final KernelRepository repository;
    private final MetadataSql sql;

    PartitionAggregateWorkload(BenchmarkConfig.Partitions config, PartitionedJobs jobs, KernelRepository repository,
            MetadataSql sql) {
        this.config = config;
        this.jobs = jobs;
        this.repository = repository;
        this.sql = sql;
    }

    @Override
    public String name() {
        return "partition-aggregate";
    }

    @Override
    public String description() {
        return "aggregating " + config.aggregatedChildren() + " completed partitions, " + config.repetitions() + " runs";
    }

    @Override
    public JsonLine run() {
        PartitionedJobs.Parent parent = jobs.start("bench-aggregate", 1);
        List<StepPartition> plan = jobs.plan(parent, PartitionedJobs.entries(config.aggregatedChildren()));
        for (int from = 0; from < plan.size(); from += SETUP_BATCH) {
            List<StepPartition> slice = plan.subList(from, Math.min(plan.size(), from + SETUP_BATCH));
            QuarkusTransaction.requiringNew()
                    .run(() -> slice.forEach(partition -> jobs.runToCompletion(parent, partition)));
        }

        List<Long> nanos = new ArrayList<>();
        long statements = 0;
        for (int run = 0; run <= config.repetitions(); run++) { // run 0 warms up
            long before = sql.statementsExecuted();
            long started = System.nanoTime();
            try {
                QuarkusTransaction.requiringNew().run(() -> {
                    aggregate(parent);
                    throw new RolledBack();
                });
            } catch (RolledBack expected) {
                // measured without publishing, so the same parent is aggregated again
            }
            if (run > 0) {
                nanos.add(System.nanoTime() - started);
                statements = Math.max(statements, sql.statementsExecuted() - before);
            }
        }
        long started = System.nanoTime();
        StepExecution aggregated = QuarkusTransaction.requiringNew().call(() -> aggregate(parent));
        double committedMillis = (System.nanoTime() - started) / 1e6;

        Latencies latencies = new Latencies(nanos);
        long expectedReads = (long) config.aggregatedChildren() * PartitionedJobs.CHUNK.readCount();
        return JsonLine.workload(name())
                .put("children", config.aggregatedChildren())
                .put("runs", config.repetitions())
                .put("msMedian", latencies.percentileMillis(50))
                .put("msMin", latencies.minMillis())
                .put("msCommitted", committedMillis)
                .put("jdbcStatements", statements)
                .put("status", aggregated.status().name())
                .require(statements == 1, "an aggregation is one statement")
                .require(aggregated.status() == ExecutionStatus.COMPLETED, "the parent ends COMPLETED")
                .require(aggregated.counters().readCount() == expectedReads, "every child is counted once");
    }

    private StepExecution aggregate(PartitionedJobs.Parent parent) {
        return repository.aggregateStepPartitions(parent.step().id(), parent.step().version(), Instant.now());
    }

    private static final class RolledBack extends RuntimeException {
        private static final long serialVersionUID = 1L;
    }
}
