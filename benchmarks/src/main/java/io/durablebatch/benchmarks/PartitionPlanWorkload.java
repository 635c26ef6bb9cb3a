package io.durablebatch.benchmarks;

import java.util.ArrayList;
import java.util.List;

import io.durablebatch.repository.partition.PartitionPlanEntry;
import io.durablebatch.runtime.sql.MetadataSql;

/**
 * Creating a plan of many partitions in its own unit of work, on a fresh parent step each time: the
 * plan is one set-based statement whatever its size.
 */
final class PartitionPlanWorkload implements Workload {

    private final BenchmarkConfig.Partitions config;
    private final PartitionedJobs jobs;
    private final BenchDatabase database;
    private final MetadataSql sql;

    PartitionPlanWorkload(BenchmarkConfig.Partitions config, PartitionedJobs jobs, BenchDatabase database,
            MetadataSql sql) {
        this.config = config;
        this.jobs = jobs;
        this.database = database;
        this.sql = sql;
    }

    @Override
    public String name() {
        return "partition-plan";
    }

    @Override
    public String description() {
        return "creating a plan of " + config.planSize() + " partitions, " + config.repetitions() + " runs";
    }

    @Override
    public JsonLine run() {
        List<PartitionPlanEntry> entries = PartitionedJobs.entries(config.planSize());
        List<Long> nanos = new ArrayList<>();
        long statements = 0;
        for (int run = 0; run <= config.repetitions(); run++) { // run 0 warms up
            PartitionedJobs.Parent parent = jobs.start("bench-plan", run);
            long before = sql.statementsExecuted();
            long started = System.nanoTime();
            jobs.plan(parent, entries);
            long elapsed = System.nanoTime() - started;
            if (run > 0) {
                nanos.add(elapsed);
                statements = Math.max(statements, sql.statementsExecuted() - before);
            }
        }
        Latencies latencies = new Latencies(nanos);
        long stored = database.queryLong("SELECT count(*) FROM {p}step_partition");
        return JsonLine.workload(name())
                .put("partitions", config.planSize())
                .put("runs", config.repetitions())
                .put("msMedian", latencies.percentileMillis(50))
                .put("msMin", latencies.minMillis())
                .put("msMax", latencies.maxMillis())
                .put("jdbcStatementsPerPlan", statements)
                .require(statements == 1, "a plan is one statement")
                .require(stored == (long) (config.repetitions() + 1) * config.planSize(), "every plan is stored whole");
    }
}
