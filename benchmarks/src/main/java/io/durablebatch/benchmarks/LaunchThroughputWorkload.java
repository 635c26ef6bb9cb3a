package io.durablebatch.benchmarks;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import org.jboss.logging.Logger;

import io.durablebatch.execution.JobInstanceKey;
import io.durablebatch.execution.JobName;

/**
 * Launches of distinct instances through the {@link LaunchPath}, from one or several threads:
 * throughput, statements and commits per launch, failed launches and orphan instances.
 */
final class LaunchThroughputWorkload implements Workload {

    private static final Logger LOG = Logger.getLogger(LaunchThroughputWorkload.class);
    private static final JobName JOB = JobName.of("bench-launch");
    private static final JobName WARMUP_JOB = JobName.of("bench-launch-warmup");
    private static final int FAILURES_LOGGED = 5;

    private final String name;
    private final int threads;
    private final BenchmarkConfig.Launch config;
    private final LaunchPath launchPath;
    private final BenchDatabase database;
    private final StatementCounter statements;

    LaunchThroughputWorkload(String name, int threads, BenchmarkConfig.Launch config, LaunchPath launchPath,
            BenchDatabase database, StatementCounter statements) {
        this.name = name;
        this.threads = threads;
        this.config = config;
        this.launchPath = launchPath;
        this.database = database;
        this.statements = statements;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return config.count() + " launches of distinct one-step jobs from " + threads + " thread(s)";
    }

    @Override
    public JsonLine run() {
        launchAll(WARMUP_JOB, config.warmup());
        database.truncateRepository();

        StatementCounter.Window window = statements.startCountingTransactions();
        Outcome outcome = launchAll(JOB, config.count());
        StatementCounts counts = window.stop();

        long launches = config.count();
        long instances = database.queryLong("SELECT count(*) FROM {p}job_instance");
        long completed = database.queryLong("SELECT count(*) FROM {p}job_execution WHERE status = 'COMPLETED'");
        long orphans = database.queryLong("SELECT count(*) FROM {p}job_instance i WHERE NOT EXISTS "
                + "(SELECT 1 FROM {p}job_execution e WHERE e.job_instance_id = i.id)");
        return JsonLine.workload(name)
                .put("threads", threads)
                .put("launches", launches)
                .put("seconds", outcome.nanos() / 1e9)
                .put("launchesPerSecond", launches / (outcome.nanos() / 1e9))
                .put("pgStatementsPerLaunch", counts.pgStatements() / (double) launches)
                .put("jdbcStatementsPerLaunch", counts.jdbcStatements() / (double) launches)
                .put("commitsPerLaunch", counts.commits() / (double) launches)
                .put("pgStatementsPerLaunchByKind", counts.callsByKindPer(launches))
                .put("failures", outcome.failures())
                .put("orphans", orphans)
                .put("completedExecutions", completed)
                .require(outcome.failures() == 0, "no launch fails")
                .require(orphans == 0, "no instance without an execution")
                .require(instances == launches - outcome.failures(), "one instance per successful launch")
                .require(completed == launches - outcome.failures(), "every successful launch ends COMPLETED");
    }

    private record Outcome(long nanos, long failures) {
    }

    private Outcome launchAll(JobName job, int count) {
        AtomicInteger next = new AtomicInteger();
        LongAdder failures = new LongAdder();
        long nanos = Concurrently.run(threads, () -> {
            for (int run = next.getAndIncrement(); run < count; run = next.getAndIncrement()) {
                try {
                    launchPath.launch(JobInstanceKey.of(job, Map.of("run", (long) run)));
                } catch (RuntimeException e) {
                    failures.increment();
                    if (failures.sum() <= FAILURES_LOGGED) {
                        LOG.warnf(e, "launch %d of %s failed", run, job);
                    }
                }
            }
        });
        return new Outcome(nanos, failures.sum());
    }
}
