package io.durablebatch.benchmarks;

import java.util.List;
import java.util.Locale;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Sizes of the workloads; override any with {@code -Dbenchmark.…} or {@code BENCHMARK_…} variables. */
@ConfigMapping(prefix = "benchmark")
interface BenchmarkConfig {

    /**
     * How the JVM running the workloads is used: {@code warm}, one JVM for every workload selected,
     * each warmed up before it is measured; or {@code fresh-jvm}, one new JVM per measured run, as a
     * user's short job starts ({@code benchmarks/run.sh --fresh-jvm}), in which the kernel workloads
     * skip their warm-up runs. Printed as {@code mode} in every JSON line.
     */
    @WithDefault("warm")
    Mode mode();

    enum Mode {
        WARM,
        FRESH_JVM;

        /** Whether the kernel workloads run a warm-up before the measured runs. */
        boolean warmsUp() {
            return this == WARM;
        }

        /** As the option is spelt: {@code warm}, {@code fresh-jvm}. */
        String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    Launch launch();

    Storm storm();

    History history();

    Partitions partitions();

    Purge purge();

    Control control();

    Kernel kernel();

    Listing listing();

    interface Launch {
        /** Launches measured, each of a distinct instance. */
        @WithDefault("2000")
        int count();

        /** Launches run first and thrown away, so the JIT and the prepared statements are warm. */
        @WithDefault("200")
        int warmup();

        /** Launcher threads of the concurrent variant. */
        @WithDefault("8")
        int threads();
    }

    interface Storm {
        @WithDefault("8")
        int threads();

        /** Launches of the one shared key by each thread. */
        @WithDefault("50")
        int launchesPerThread();
    }

    interface History {
        /** Job executions stored before the lookups are timed. */
        @WithDefault("100000")
        int executions();

        /** Attempts of each stored instance (restarts after failures, the last one COMPLETED). */
        @WithDefault("4")
        int attemptsPerInstance();

        /** Timed lookups of each kind, over random instances. */
        @WithDefault("2000")
        int samples();

        /** Lookups of each kind run first and thrown away. */
        @WithDefault("1000")
        int warmup();
    }

    interface Partitions {
        /** Partitions of the plan whose creation is timed. */
        @WithDefault("10000")
        int planSize();

        /** Partitions the workers claim and complete, per worker count. */
        @WithDefault("2000")
        int claimPartitions();

        /** The worker counts the claim throughput is measured with, one run each. */
        @WithDefault("1,8")
        List<Integer> workers();

        /** Completed children of the parent whose aggregation is timed. */
        @WithDefault("10000")
        int aggregatedChildren();

        /** Timed runs of plan creation and of aggregation, after one warm-up run each. */
        @WithDefault("5")
        int repetitions();
    }

    interface Purge {
        /** Finished instances seeded, each with 2 executions (FAILED, then COMPLETED) of 3 steps. */
        @WithDefault("100000")
        int instances();

        /** Instances per survey and purge, one unit of work each. */
        @WithDefault("1000")
        int batchSize();

        /** Batches of other instances purged first and thrown away (JIT, server-prepared statements). */
        @WithDefault("20")
        int warmupBatches();
    }

    interface Control {
        /** Timed observations of a running execution, each in its own unit of work. */
        @WithDefault("10000")
        int calls();

        /** Observations run first and thrown away. */
        @WithDefault("2000")
        int warmup();
    }

    interface Kernel {
        /** Items of one chunk ETL run (chunks of 100). */
        @WithDefault("200000")
        long items();

        /** Alternating kernel and bare-JDBC rounds; the medians are reported. */
        @WithDefault("3")
        int rounds();

        /** The ways {@code chunk-etl} runs the same ETL, in this order within each round. */
        @WithDefault("kernel,bare-jdbc,jta-jdbc")
        List<EtlPath> paths();

        /** Sequential launches of the one-step job. */
        @WithDefault("300")
        int launches();
    }

    interface Listing {
        /** Job executions stored before the pages are timed, one per instance, over four jobs. */
        @WithDefault("1000000")
        int executions();

        /** Items of each timed page. */
        @WithDefault("50")
        int pageSize();

        /** Timed pages of each kind, at random depths. */
        @WithDefault("1000")
        int samples();

        /** Pages of each kind read first and thrown away. */
        @WithDefault("300")
        int warmup();
    }
}
