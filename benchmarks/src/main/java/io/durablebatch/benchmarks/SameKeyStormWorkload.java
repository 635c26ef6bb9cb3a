package io.durablebatch.benchmarks;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import org.jboss.logging.Logger;

import io.durablebatch.execution.JobInstanceKey;
import io.durablebatch.execution.JobName;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;

/**
 * Several threads launch the same key over and over through the {@link LaunchPath}. The first launch
 * wins and runs to COMPLETED; every other one must be refused with a typed code: EXECUTION_ACTIVE
 * while the winner runs, INSTANCE_COMPLETE after. Exactly one execution may exist at the end.
 */
final class SameKeyStormWorkload implements Workload {

    private static final Logger LOG = Logger.getLogger(SameKeyStormWorkload.class);
    private static final JobInstanceKey KEY = JobInstanceKey.of(JobName.of("bench-storm"), Map.of("run", 1L));
    private static final Set<RepositoryError> EXPECTED_REFUSALS = EnumSet.of(RepositoryError.EXECUTION_ACTIVE,
            RepositoryError.INSTANCE_COMPLETE);

    private final BenchmarkConfig.Storm config;
    private final LaunchPath launchPath;
    private final BenchDatabase database;
    private final StatementCounter statements;

    SameKeyStormWorkload(BenchmarkConfig.Storm config, LaunchPath launchPath, BenchDatabase database,
            StatementCounter statements) {
        this.config = config;
        this.launchPath = launchPath;
        this.database = database;
        this.statements = statements;
    }

    @Override
    public String name() {
        return "same-key-storm";
    }

    @Override
    public String description() {
        return config.threads() + " threads x " + config.launchesPerThread() + " launches of one key";
    }

    @Override
    public JsonLine run() {
        Map<String, LongAdder> errors = new ConcurrentHashMap<>();
        LongAdder created = new LongAdder();
        LongAdder unfinished = new LongAdder();

        StatementCounter.Window window = statements.startCountingTransactions();
        long nanos = Concurrently.run(config.threads(), () -> {
            for (int i = 0; i < config.launchesPerThread(); i++) {
                LaunchPath.Launch launch;
                try {
                    launch = launchPath.start(KEY);
                } catch (RepositoryException e) {
                    errors.computeIfAbsent(e.error().name(), code -> new LongAdder()).increment();
                    continue;
                } catch (RuntimeException e) {
                    LOG.warn("a launch failed without a repository error code", e);
                    errors.computeIfAbsent(e.getClass().getName(), type -> new LongAdder()).increment();
                    continue;
                }
                created.increment();
                try {
                    launchPath.complete(launch);
                } catch (RuntimeException e) {
                    LOG.warn("the winning launch did not complete", e);
                    unfinished.increment();
                }
            }
        });
        StatementCounts counts = window.stop();

        long attempts = (long) config.threads() * config.launchesPerThread();
        Map<String, Long> histogram = new TreeMap<>();
        errors.forEach((code, count) -> histogram.put(code, count.sum()));
        boolean onlyTypedRefusals = histogram.keySet().stream()
                .allMatch(code -> EXPECTED_REFUSALS.stream().anyMatch(refusal -> refusal.name().equals(code)));
        long instances = database.queryLong("SELECT count(*) FROM {p}job_instance");
        long executions = database.queryLong("SELECT count(*) FROM {p}job_execution");
        long completed = database.queryLong("SELECT count(*) FROM {p}job_execution WHERE status = 'COMPLETED'");
        return JsonLine.workload(name())
                .put("threads", config.threads())
                .put("launchAttempts", attempts)
                .put("seconds", nanos / 1e9)
                .put("executionsCreated", created.sum())
                .put("executionsStored", executions)
                .put("instancesStored", instances)
                .put("errors", histogram)
                .put("pgStatementsPerAttempt", counts.pgStatements() / (double) attempts)
                .put("commits", counts.endedTransactions().commits())
                .put("rollbacks", counts.endedTransactions().rollbacks())
                .put("jdbcStatementsPerAttempt", counts.jdbcStatements() / (double) attempts)
                .require(created.sum() == 1 && executions == 1, "exactly one execution is created")
                .require(instances == 1, "exactly one instance exists")
                .require(completed == 1 && unfinished.sum() == 0, "the winning launch completes")
                .require(onlyTypedRefusals, "every other launch is refused with EXECUTION_ACTIVE or INSTANCE_COMPLETE")
                .require(histogram.values().stream().mapToLong(Long::longValue).sum() == attempts - created.sum(),
                        "every launch either wins or is refused");
    }
}
