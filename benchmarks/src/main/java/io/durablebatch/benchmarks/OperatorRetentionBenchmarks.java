package io.durablebatch.benchmarks;

import java.util.ArrayList;
import java.util.List;

import jakarta.inject.Inject;

import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.annotations.QuarkusMain;

/**
 * Runs the operator and retention workloads and prints one JSON line per workload. Named, so it
 * sits beside the benchmark harness's own entry point: build with
 * {@code -Dquarkus.package.main-class=operator-retention} to make it the jar's main. Arguments:
 * {@code purge}, {@code control} (default: both) and {@code --instances=N} to purge fewer instances.
 */
@QuarkusMain(name = "operator-retention")
public class OperatorRetentionBenchmarks implements QuarkusApplication {

    @Inject
    PurgeBenchmark purge;

    @Inject
    ExecutionControlBenchmark control;

    @Override
    public int run(String... args) {
        int instances = PurgeBenchmark.INSTANCES;
        List<String> workloads = new ArrayList<>();
        for (String arg : args) {
            if (arg.startsWith("--instances=")) {
                instances = Integer.parseInt(arg.substring("--instances=".length()));
            } else {
                workloads.add(arg);
            }
        }
        List<String> lines = new ArrayList<>();
        if (workloads.isEmpty() || workloads.contains("control")) {
            lines.addAll(control.run());
        }
        if (workloads.isEmpty() || workloads.contains("purge")) {
            lines.addAll(purge.run(instances, PurgeBenchmark.BATCH));
        }
        lines.forEach(System.out::println);
        return 0;
    }
}
