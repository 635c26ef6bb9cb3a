package io.durablebatch.benchmarks;

import java.util.UUID;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.job.JobOperator;
import io.durablebatch.job.JobParameters;
import io.durablebatch.job.OperatorCall;
import io.durablebatch.runtime.sql.MetadataSql;

/**
 * Launches of a one-step job through the kernel, one after another, each awaited to its end:
 * launch, claim and audit, the run on a kernel thread, the step and the flow decision, the end.
 */
final class KernelLaunchBenchmark implements Workload {

    private final BenchmarkConfig.Kernel config;
    private final JobOperator operator;
    private final MetadataSql metadataSql;

    KernelLaunchBenchmark(BenchmarkConfig.Kernel config, JobOperator operator, MetadataSql metadataSql) {
        this.config = config;
        this.operator = operator;
        this.metadataSql = metadataSql;
    }

    @Override
    public String name() {
        return "kernel-launches";
    }

    @Override
    public String description() {
        return config.launches() + " sequential launches of a one-step job, each run to its end";
    }

    @Override
    public JsonLine run() {
        JsonLine line = JsonLine.workload(name()).put("launches", config.launches());
        launch(config.launches() / 5, line);
        long before = metadataSql.statementsExecuted();
        long start = System.nanoTime();
        launch(config.launches(), line);
        double seconds = (System.nanoTime() - start) / 1e9;
        long statements = metadataSql.statementsExecuted() - before;
        return line.put("launchesPerSecond", config.launches() / seconds)
                .put("millisPerLaunch", seconds * 1000 / config.launches())
                .put("metadataStatementsPerLaunch", (double) statements / config.launches());
    }

    private void launch(int count, JsonLine line) {
        for (int i = 0; i < count; i++) {
            ExecutionStatus status = operator.runAndWait(BenchmarkJobs.LAUNCH, JobParameters.of("run",
                    UUID.randomUUID().toString()), OperatorCall.by("benchmark")).status();
            line.require(status == ExecutionStatus.COMPLETED, "every launch completed");
        }
    }
}
