package io.durablebatch.benchmarks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.function.Predicate;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobInstanceKey;
import io.durablebatch.execution.JobName;
import io.durablebatch.repository.JobRepository;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * Latency of the two history lookups a launch or an operator view makes, with a large history
 * stored: {@code latestJobExecution(instance)} and {@code jobExecutions(instance)}, over random
 * instances, plus the plan PostgreSQL uses for each, the server's own execution time, and as a
 * floor the latency of a trivial {@code SELECT 1} on the same path.
 * <p>
 * The history is inserted set-based ({@code generate_series}), in seconds rather than the minutes
 * that 100,000 launches through the repository would take; the lookups do not care how rows were
 * written. Keys are encoded in SQL exactly as {@link JobInstanceKey} encodes them (format byte,
 * length-prefixed job name, parameter count, then name, type tag and value of the one {@code long}
 * parameter {@code run}, lengths and numbers big-endian), with the SHA-256 digest from {@code sha256()}; resolving the sampled
 * instances through {@link JobRepository#findJobInstance} proves the encodings agree. Each instance
 * has several attempts (FAILED restarts, the last COMPLETED), inserted attempt by attempt across all
 * instances, so an instance's rows lie on different pages as a long-lived history's would.
 */
final class HistoryLookupWorkload implements Workload {

    private static final JobName JOB = JobName.of("bench-history");
    private static final long SEED = 20261130L;

    private static final String PARAMETER = "run";

    /** Canonical key: format 1, job name, 1 parameter: its name, type tag 2 (long), 8-byte value; big-endian lengths. */
    private static final String INSERT_INSTANCES = "WITH job AS (SELECT ?::text AS name, convert_to(?, 'UTF8') AS utf8, "
            + "convert_to(?, 'UTF8') AS parameter), "
            + "keys AS (SELECT job.name, decode('01', 'hex') || int4send(octet_length(job.utf8)) || job.utf8 "
            + "    || int4send(1) || int4send(octet_length(job.parameter)) || job.parameter || decode('02', 'hex') "
            + "    || int8send(g.run::bigint) AS key_bytes, g.run FROM job, generate_series(1, ?) AS g(run)) "
            + "INSERT INTO {p}job_instance (job_name, key_bytes, key_digest, created_at) "
            + "SELECT name, key_bytes, sha256(key_bytes), now() - interval '30 days' FROM keys ORDER BY run";

    private static final String INSERT_EXECUTIONS = "INSERT INTO {p}job_execution (job_instance_id, job_name, attempt, "
            + "status, exit_code, created_at, started_at, ended_at, last_updated, version) "
            + "SELECT i.id, i.job_name, a.attempt, s.status, s.status, t.at, t.at, t.at + interval '1 minute', "
            + "t.at + interval '1 minute', 2 "
            + "FROM generate_series(1, ?) AS a(attempt) CROSS JOIN {p}job_instance i "
            + "CROSS JOIN LATERAL (SELECT CASE WHEN a.attempt < ? THEN 'FAILED' ELSE 'COMPLETED' END AS status) s "
            + "CROSS JOIN LATERAL (SELECT i.created_at + a.attempt * interval '1 hour' AS at) t "
            + "ORDER BY a.attempt, i.id";

    private final BenchmarkConfig.History config;
    private final JobRepository repository;
    private final BenchDatabase database;
    private final StatementCounter statements;
    private final QueryPlans plans;

    HistoryLookupWorkload(BenchmarkConfig.History config, JobRepository repository, BenchDatabase database,
            StatementCounter statements, QueryPlans plans) {
        this.config = config;
        this.repository = repository;
        this.database = database;
        this.statements = statements;
        this.plans = plans;
    }

    @Override
    public String name() {
        return "history-lookups";
    }

    @Override
    public String description() {
        return "p50/p99 of latestJobExecution and jobExecutions with " + config.executions() + " executions stored";
    }

    @Override
    public JsonLine run() {
        int attempts = config.attemptsPerInstance();
        int instances = config.executions() / attempts;
        long loadStarted = System.nanoTime();
        database.update(INSERT_INSTANCES, JOB.value(), JOB.value(), PARAMETER, instances);
        database.update(INSERT_EXECUTIONS, attempts, attempts);
        database.execute("ANALYZE {p}job_instance, {p}job_execution");
        double loadSeconds = (System.nanoTime() - loadStarted) / 1e9;
        long stored = database.queryLong("SELECT count(*) FROM {p}job_execution");

        List<JobInstanceId> sample = sampleInstances(instances, config.warmup() + config.samples());
        List<JobInstanceId> warmup = sample.subList(0, config.warmup());
        List<JobInstanceId> measured = sample.subList(config.warmup(), sample.size());

        Lookup<Optional<JobExecution>> latest = new Lookup<>("latestJobExecution", repository::latestJobExecution,
                execution -> execution.isPresent() && execution.get().attempt() == attempts
                        && execution.get().status() == ExecutionStatus.COMPLETED);
        Lookup<List<JobExecution>> all = new Lookup<>("jobExecutions", repository::jobExecutions,
                executions -> executions.size() == attempts
                        && executions.get(attempts - 1).status() == ExecutionStatus.COMPLETED);
        // The floor under any repository call: one trivial statement on the same enlisted connection.
        Lookup<Long> roundTrip = new Lookup<>("selectOneRoundTrip", id -> database.roundTrip(), one -> one == 1);
        List<Lookup<?>> lookups = List.of(latest, all, roundTrip);

        timeInterleaved(lookups, warmup);
        StatementCounter.Window window = statements.start();
        timeInterleaved(lookups, measured);
        StatementCounts timed = window.stop();

        JsonLine line = JsonLine.workload(name())
                .put("executions", stored)
                .put("instances", instances)
                .put("attemptsPerInstance", attempts)
                .put("loadSeconds", loadSeconds)
                .put("samples", measured.size());
        for (Lookup<?> lookup : List.of(latest, all)) {
            Map<String, Object> figures = lookup.percentiles();
            Probe probe = probe(lookup, measured.get(0));
            boolean oneStatement = probe.selects().size() == 1 && probe.jdbcStatements() == 1;
            figures.put("jdbcStatementsPerLookup", probe.jdbcStatements());
            if (oneStatement) {
                // What the server itself spent executing the statement in the timed run: the rest of
                // a lookup's time is the round trip, the driver and the scheduling of both processes.
                StatementCounts.QueryStats server = timed.byQuery().get(probe.selects().get(0));
                figures.put("serverMeanMicros", server.meanExecMicros());
                figures.put("serverMaxMicros", server.maxExecMillis() * 1_000);
                QueryPlans.Plan plan = plans.genericPlan(probe.selects().get(0), measured.get(0).value());
                figures.put("plan", plan.nodes());
                line.require(plan.indexed(), lookup.name + " is served by an index");
            } else {
                figures.put("statements", probe.selects());
            }
            line.put(lookup.name, figures).require(oneStatement, lookup.name + " is one statement");
        }
        line.put(roundTrip.name, roundTrip.percentiles());
        for (Lookup<?> lookup : lookups) {
            line.require(lookup.wrong == 0, lookup.name + " returns the stored history");
        }
        return line.require(stored == (long) instances * attempts, "the whole history is stored");
    }

    /** Random instances, resolved by key through the repository. */
    private List<JobInstanceId> sampleInstances(int instances, int count) {
        SplittableRandom random = new SplittableRandom(SEED);
        return QuarkusTransaction.requiringNew().call(() -> {
            List<JobInstanceId> ids = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                long run = 1 + random.nextInt(instances);
                JobInstanceKey key = JobInstanceKey.of(JOB, Map.of(PARAMETER, run));
                ids.add(repository.findJobInstance(key).orElseThrow(() -> new IllegalStateException(
                        "the stored history has no instance for " + key + ": its SQL key encoding differs from JobInstanceKey"))
                        .id());
            }
            return ids;
        });
    }

    /**
     * Times every lookup on every instance, the lookups taking turns per instance so that all see
     * the same load on this shared machine. Each call runs in its own unit of work; only the call
     * itself is timed.
     */
    private static void timeInterleaved(List<Lookup<?>> lookups, List<JobInstanceId> ids) {
        for (Lookup<?> lookup : lookups) {
            lookup.prepare(ids.size());
        }
        for (int i = 0; i < ids.size(); i++) {
            for (Lookup<?> lookup : lookups) {
                lookup.time(i, ids.get(i));
            }
        }
    }

    /** The statements one call of a lookup issues, as PostgreSQL and JDBC count them. */
    private record Probe(List<String> selects, long jdbcStatements) {
    }

    private Probe probe(Lookup<?> lookup, JobInstanceId id) {
        StatementCounter.Window window = statements.start();
        QuarkusTransaction.requiringNew().run(() -> lookup.call.apply(id));
        StatementCounts counts = window.stop();
        return new Probe(counts.queries("SELECT"), counts.jdbcStatements());
    }

    private record Timed<T>(T value, long nanos) {
    }

    /** One timed lookup: its call, the check of its result, and its samples. */
    private static final class Lookup<T> {
        private final String name;
        private final Function<JobInstanceId, T> call;
        private final Predicate<T> expected;
        private long[] nanos = new long[0];
        private long wrong;

        Lookup(String name, Function<JobInstanceId, T> call, Predicate<T> expected) {
            this.name = name;
            this.call = call;
            this.expected = expected;
        }

        void prepare(int samples) {
            nanos = new long[samples];
            wrong = 0;
        }

        void time(int sample, JobInstanceId id) {
            Timed<T> timed = QuarkusTransaction.requiringNew().call(() -> {
                long started = System.nanoTime();
                T value = call.apply(id);
                return new Timed<>(value, System.nanoTime() - started);
            });
            nanos[sample] = timed.nanos();
            if (!expected.test(timed.value())) {
                wrong++;
            }
        }

        Map<String, Object> percentiles() {
            Latencies latencies = new Latencies(nanos);
            Map<String, Object> figures = new LinkedHashMap<>();
            figures.put("p50Micros", latencies.percentileMicros(50));
            figures.put("p90Micros", latencies.percentileMicros(90));
            figures.put("p99Micros", latencies.percentileMicros(99));
            return figures;
        }
    }
}
