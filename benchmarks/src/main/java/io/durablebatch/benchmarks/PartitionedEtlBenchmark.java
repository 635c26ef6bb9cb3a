package io.durablebatch.benchmarks;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import org.jboss.logging.Logger;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;

/**
 * The chunk ETL of {@link ChunkEtlBenchmark} as a partitioned step (8 partitions of the items),
 * run by 1, 2 and 4 local workers: items per second for each.
 */
final class PartitionedEtlBenchmark implements Workload {

    private static final Logger LOG = Logger.getLogger(PartitionedEtlBenchmark.class);
    static final int PARTITIONS = 8;

    private final BenchmarkConfig.Kernel config;
    private final BenchmarkConfig.Mode mode;
    private final JobOperator operator;
    private final BenchDatabase database;

    PartitionedEtlBenchmark(BenchmarkConfig.Kernel config, BenchmarkConfig.Mode mode, JobOperator operator,
            BenchDatabase database) {
        this.config = config;
        this.mode = mode;
        this.operator = operator;
        this.database = database;
    }

    @Override
    public String name() {
        return "partitioned-etl";
    }

    @Override
    public String description() {
        return config.items() + " items in " + PARTITIONS + " partitions, chunks of " + ChunkEtlBenchmark.CHUNK
                + ", with " + BenchmarkJobs.WORKERS + " local workers";
    }

    @Override
    public JsonLine run() {
        EtlTarget.create(database);
        JsonLine line = JsonLine.workload(name()).put("items", config.items()).put("partitions", PARTITIONS)
                .put("chunk", ChunkEtlBenchmark.CHUNK);
        if (mode.warmsUp()) {
            run(4, config.items() / 10, line);
        }
        Map<String, Double> rates = new LinkedHashMap<>();
        for (int workers : BenchmarkJobs.WORKERS) {
            double seconds = run(workers, config.items(), line);
            rates.put(workers + " workers", config.items() / seconds);
            LOG.infof("%d worker(s): %.0f items/s", workers, config.items() / seconds);
        }
        return line.put("itemsPerSecond", rates);
    }

    private double run(int workers, long items, JsonLine line) {
        EtlTarget.truncate(database);
        long start = System.nanoTime();
        JobExecution execution = operator.runAndWait(BenchmarkJobs.partitionedEtl(workers), JobParameters.of("items", items)
                .with("partitions", (long) PARTITIONS).with("run", UUID.randomUUID().toString()),
                OperatorCall.by("benchmark"));
        double seconds = (System.nanoTime() - start) / 1e9;
        line.require(execution.status() == ExecutionStatus.COMPLETED, "the partitioned ETL job completed");
        line.require(EtlTarget.rows(database) == items, "etl_target holds every item exactly once");
        return seconds;
    }
}
