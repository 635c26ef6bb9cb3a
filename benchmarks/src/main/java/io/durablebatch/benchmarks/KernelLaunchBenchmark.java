package io.durablebatch.benchmarks;

import java.util.UUID;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.runtime.sql.MetadataSql;

/**
 * Launches of a one-step job through the kernel, one after another, each awaited to its end:
 * launch, claim and audit, the run on a kernel thread, the step and the flow decision, the end.
 * Besides the rate, what each launch costs the server: its statements and commits as PostgreSQL
 * counted them, and the time PostgreSQL spent executing them ({@link StatementCounts}), the
 * figures a Spring Batch launch is compared on.
 */
final class KernelLaunchBenchmark implements Workload {

    private final BenchmarkConfig.Kernel config;
    private final BenchmarkConfig.Mode mode;
    private final JobOperator operator;
    private final MetadataSql metadataSql;
    private final StatementCounter statements;

    KernelLaunchBenchmark(BenchmarkConfig.Kernel config, BenchmarkConfig.Mode mode, JobOperator operator,
            MetadataSql metadataSql, StatementCounter statements) {
        this.config = config;
        this.mode = mode;
        this.operator = operator;
        this.metadataSql = metadataSql;
        this.statements = statements;
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
        int launches = config.launches();
        JsonLine line = JsonLine.workload(name()).put("launches", launches);
        if (mode.warmsUp()) {
            launch(launches / 5, line);
        }
        StatementCounter.Window window = statements.startCountingTransactions();
        long before = metadataSql.statementsExecuted();
        long start = System.nanoTime();
        launch(launches, line);
        double seconds = (System.nanoTime() - start) / 1e9;
        long metadataStatements = metadataSql.statementsExecuted() - before;
        StatementCounts counts = window.stop();
        return line.put("launchesPerSecond", launches / seconds)
                .put("millisPerLaunch", seconds * 1000 / launches)
                .put("metadataStatementsPerLaunch", (double) metadataStatements / launches)
                .put("pgStatementsPerLaunch", counts.pgStatements() / (double) launches)
                .put("commitsPerLaunch", counts.commits() / (double) launches)
                .put("serverMillisPerLaunch", counts.totalExecMillis() / launches)
                .put("pgStatementsPerLaunchByKind", counts.callsByKindPer(launches));
    }

    private void launch(int count, JsonLine line) {
        for (int i = 0; i < count; i++) {
            ExecutionStatus status = operator.runAndWait(BenchmarkJobs.LAUNCH, JobParameters.of("run",
                    UUID.randomUUID().toString()), OperatorCall.by("benchmark")).status();
            line.require(status == ExecutionStatus.COMPLETED, "every launch completed");
        }
    }
}
