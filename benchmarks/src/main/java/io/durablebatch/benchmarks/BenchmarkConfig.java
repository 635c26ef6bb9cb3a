package io.durablebatch.benchmarks;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Sizes of the workloads; override any with {@code -Dbenchmark.…} or {@code BENCHMARK_…} variables. */
@ConfigMapping(prefix = "benchmark")
interface BenchmarkConfig {

    Launch launch();

    Storm storm();

    History history();

    Kernel kernel();

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

    interface Kernel {
        /** Items of one chunk ETL run (chunks of 100). */
        @WithDefault("200000")
        long items();

        /** Alternating kernel and bare-JDBC rounds; the medians are reported. */
        @WithDefault("3")
        int rounds();

        /** Sequential launches of the one-step job. */
        @WithDefault("300")
        int launches();
    }
}
