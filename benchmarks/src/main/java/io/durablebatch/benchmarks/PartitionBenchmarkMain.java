package io.durablebatch.benchmarks;

import java.util.Arrays;
import java.util.List;

import jakarta.inject.Inject;

import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.annotations.QuarkusMain;

/**
 * Runs {@link PartitionBenchmark} alone and prints its JSON lines. Named, so it coexists with the
 * benchmark harness's own main; select it at build time with
 * {@code -Dquarkus.package.main-class=partition-benchmark}. Arguments (all optional):
 * {@code planSize throughputPartitions workerCounts(comma-separated) aggregatedChildren repetitions}.
 */
@QuarkusMain(name = "partition-benchmark")
public class PartitionBenchmarkMain implements QuarkusApplication {

    @Inject
    PartitionBenchmark benchmark;

    @Override
    public int run(String... args) {
        PartitionBenchmark.Settings defaults = PartitionBenchmark.Settings.defaults();
        PartitionBenchmark.Settings settings = new PartitionBenchmark.Settings(
                intArg(args, 0, defaults.planSize()), intArg(args, 1, defaults.throughputPartitions()),
                args.length > 2 ? Arrays.stream(args[2].split(",")).map(Integer::valueOf).toList()
                        : defaults.workerCounts(),
                intArg(args, 3, defaults.aggregatedChildren()), intArg(args, 4, defaults.repetitions()));
        List<String> lines = benchmark.run(settings);
        lines.forEach(System.out::println);
        return 0;
    }

    private static int intArg(String[] args, int index, int fallback) {
        return args.length > index ? Integer.parseInt(args[index]) : fallback;
    }
}
