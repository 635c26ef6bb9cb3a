package io.durablebatch.benchmarks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;

import org.jboss.logging.Logger;

import io.durablebatch.repository.partition.StepPartition;
import io.durablebatch.runtime.sql.MetadataSql;

/**
 * Workers working off one plan, each partition in the kernel's two units of work: (1) start a worker
 * step, claim the next partition, move the worker to STARTED; (2) end the worker with its counters and
 * complete the partition. Once per configured worker count, on a plan of its own.
 */
final class PartitionClaimWorkload implements Workload {

    private static final Logger LOG = Logger.getLogger(PartitionClaimWorkload.class);

    private final BenchmarkConfig.Partitions config;
    private final PartitionedJobs jobs;
    private final BenchDatabase database;
    private final StatementCounter statements;
    private final MetadataSql sql;

    PartitionClaimWorkload(BenchmarkConfig.Partitions config, PartitionedJobs jobs, BenchDatabase database,
            StatementCounter statements, MetadataSql sql) {
        this.config = config;
        this.jobs = jobs;
        this.database = database;
        this.statements = statements;
        this.sql = sql;
    }

    @Override
    public String name() {
        return "partition-claim";
    }

    @Override
    public String description() {
        return "claim + complete of " + config.claimPartitions() + " partitions by " + config.workers() + " workers";
    }

    @Override
    public JsonLine run() {
        JsonLine line = JsonLine.workload(name()).put("partitions", config.claimPartitions());
        List<Map<String, Object>> runs = new ArrayList<>();
        for (int workers : config.workers()) {
            runs.add(workOff(workers, line));
        }
        return line.put("runs", runs);
    }

    private Map<String, Object> workOff(int workers, JsonLine line) {
        PartitionedJobs.Parent parent = jobs.start("bench-claim", workers);
        jobs.plan(parent, PartitionedJobs.entries(config.claimPartitions()));
        LongAdder completed = new LongAdder();
        LongAdder failures = new LongAdder();

        StatementCounter.Window window = statements.startCountingTransactions();
        long jdbcBefore = sql.statementsExecuted();
        long nanos = Concurrently.run(workers, () -> {
            try {
                for (Optional<StepPartition> claimed = jobs.claim(parent); claimed.isPresent(); claimed = jobs
                        .claim(parent)) {
                    jobs.complete(claimed.get());
                    completed.increment();
                }
            } catch (RuntimeException e) {
                // a failed worker stops; its partition stays assigned, as in production
                failures.increment();
                LOG.warn("a worker failed", e);
            }
        });
        long jdbc = sql.statementsExecuted() - jdbcBefore;
        StatementCounts counts = window.stop();

        long done = completed.sum();
        long assignedOnce = database.queryLong("SELECT count(DISTINCT worker_step_execution_id) FROM {p}step_partition "
                + "WHERE parent_step_execution_id = ? AND status = 'COMPLETED'", parent.step().id().value());
        double perPartition = Math.max(1, done);
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("workers", workers);
        run.put("seconds", nanos / 1e9);
        run.put("partitionsPerSecond", done / (nanos / 1e9));
        run.put("pgStatementsPerPartition", counts.pgStatements() / perPartition);
        run.put("jdbcStatementsPerPartition", jdbc / perPartition);
        run.put("commitsPerPartition", counts.commits() / perPartition);
        // one per worker: its last claim found the plan worked off
        run.put("rollbacks", counts.endedTransactions().rollbacks());
        run.put("failures", failures.sum());
        line.require(failures.sum() == 0, workers + " workers: no worker fails")
                .require(done == config.claimPartitions(), workers + " workers: every partition is completed")
                .require(assignedOnce == done, workers + " workers: each partition by its own worker, once");
        return run;
    }
}
