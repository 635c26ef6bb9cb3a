package io.durablebatch.benchmarks;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.JobInstanceKey;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.OperationId;
import io.durablebatch.execution.RequestDigest;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.retention.PurgeCounts;
import io.durablebatch.repository.retention.PurgePlanRequest;
import io.durablebatch.repository.retention.PurgeSurvey;
import io.durablebatch.repository.retention.RetentionAction;
import io.durablebatch.repository.retention.RetentionRecordDraft;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * Purge throughput: finished instances, each with 2 executions (FAILED, then COMPLETED) of 3 steps
 * each, purged in batches the way an operator's retention job would: one unit of work per batch that
 * surveys the next batch, applies it and records the retention audit row. Reports instances per
 * second and the time per batch from the first tenth of the run to the last, which must stay flat.
 */
final class PurgeWorkload implements Workload {

    private static final JobName JOB = JobName.of("bench-purge");
    private static final JobName WARMUP_JOB = JobName.of("bench-purge-warmup");
    private static final int EXECUTIONS = 2;
    private static final int STEPS = 3;
    private static final int SEED_CHUNK = 10_000;

    private static final String INSERT_INSTANCES = "INSERT INTO {p}job_instance (job_name, key_bytes, key_digest, "
            + "created_at) SELECT ?, k.bytes, k.digest, ? FROM unnest(?::bytea[], ?::bytea[]) AS k(bytes, digest)";
    private static final String INSERT_EXECUTIONS = "INSERT INTO {p}job_execution (job_instance_id, job_name, attempt, "
            + "status, exit_code, created_at, started_at, ended_at, last_updated, version) "
            + "SELECT i.id, i.job_name, a, s, s, ?, ?, ?, ?, 2 FROM {p}job_instance i "
            + "CROSS JOIN LATERAL (VALUES (1, 'FAILED'), (2, 'COMPLETED')) AS attempts(a, s) "
            + "WHERE i.job_name = ? ORDER BY i.id, a";
    private static final String INSERT_STEPS = "INSERT INTO {p}step_execution (job_execution_id, job_instance_id, "
            + "step_name, status, exit_code, created_at, started_at, ended_at, last_updated, version) "
            + "SELECT e.id, e.job_instance_id, 'step-' || s, 'COMPLETED', 'COMPLETED', ?, ?, ?, ?, 2 "
            + "FROM {p}job_execution e CROSS JOIN generate_series(1, " + STEPS + ") AS s "
            + "WHERE e.job_name = ? ORDER BY e.id, s";

    private final BenchmarkConfig.Purge config;
    private final JobRepository repository;
    private final BenchDatabase database;
    private final StatementCounter statements;
    private final MetadataSql sql;

    PurgeWorkload(BenchmarkConfig.Purge config, JobRepository repository, BenchDatabase database,
            StatementCounter statements, MetadataSql sql) {
        this.config = config;
        this.repository = repository;
        this.database = database;
        this.statements = statements;
        this.sql = sql;
    }

    @Override
    public String name() {
        return "purge";
    }

    @Override
    public String description() {
        return "purging " + config.instances() + " finished instances (2 executions x 3 steps) in batches of "
                + config.batchSize();
    }

    @Override
    public JsonLine run() {
        // JIT compilation and the driver's switch to server-prepared statements happen here, not in
        // the first measured batches
        seed(WARMUP_JOB, config.warmupBatches() * config.batchSize());
        purgeAll(WARMUP_JOB);

        long seedStarted = System.nanoTime();
        seed(JOB, config.instances());
        double seedSeconds = (System.nanoTime() - seedStarted) / 1e9;

        StatementCounter.Window window = statements.startCountingTransactions();
        long jdbcBefore = sql.statementsExecuted();
        Run run = purgeAll(JOB);
        long jdbc = sql.statementsExecuted() - jdbcBefore;
        StatementCounts counts = window.stop();

        int batches = run.batchNanos().size();
        long purged = run.deleted().getOrDefault("job_instance", 0L);
        long left = database.queryLong("SELECT count(*) FROM {p}job_instance WHERE job_name = ?", JOB.value());
        JsonLine line = JsonLine.workload(name())
                .put("instances", purged)
                .put("executionsPerInstance", EXECUTIONS)
                .put("stepsPerExecution", STEPS)
                .put("batchSize", config.batchSize())
                .put("batches", batches)
                .put("seconds", run.seconds())
                .put("instancesPerSecond", purged / run.seconds());
        if (batches > 0) {
            Latencies all = new Latencies(run.batchNanos());
            line.put("batchMsMedianPerTenth", tenths(run.batchNanos()))
                    .put("batchMsMedian", all.percentileMillis(50))
                    .put("batchMsMax", all.maxMillis())
                    .put("surveyMsMedian", new Latencies(run.surveyNanos()).percentileMillis(50))
                    .put("applyMsMedian", new Latencies(run.applyNanos()).percentileMillis(50))
                    // the final, empty survey is counted too
                    .put("jdbcStatementsPerBatch", jdbc / (double) batches)
                    .put("pgStatementsPerBatch", counts.pgStatements() / (double) batches)
                    .put("pgStatementsPerBatchByKind", counts.callsByKindPer(batches));
        }
        return line.put("deletedRows", run.deleted())
                .put("seedSeconds", seedSeconds)
                .put("warmupInstances", config.warmupBatches() * config.batchSize())
                .require(purged == config.instances() && left == 0, "every seeded instance is purged")
                .require(run.deleted().getOrDefault("step_execution", 0L) == (long) purged * EXECUTIONS * STEPS,
                        "every step of a purged instance is deleted with it");
    }

    /** Times of one purge of every instance of a job, batch by batch. */
    private record Run(List<Long> batchNanos, List<Long> surveyNanos, List<Long> applyNanos, Map<String, Long> deleted,
            double seconds) {
    }

    /**
     * Purges every instance of {@code job} as a retention job would: per batch, one unit of work that
     * surveys, applies and records the audit row; the next survey resumes after the last candidate.
     */
    private Run purgeAll(JobName job) {
        Run run = new Run(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new LinkedHashMap<>(), 0);
        PurgePlanRequest request = PurgePlanRequest.before(Instant.now().minus(Duration.ofHours(1)), config.batchSize())
                .forJob(job);
        long started = System.nanoTime();
        while (true) {
            PurgePlanRequest current = request;
            long batchStarted = System.nanoTime();
            long[] split = new long[2];
            PurgeSurvey survey = QuarkusTransaction.requiringNew().call(() -> {
                PurgeSurvey found = repository.purgeSurvey(current);
                split[0] = System.nanoTime();
                if (!found.candidates().isEmpty()) {
                    PurgeCounts counts = repository.applyPurge(found.plan());
                    split[1] = System.nanoTime();
                    counts.deletedRows().forEach((table, rows) -> run.deleted().merge(table, rows, Long::sum));
                    repository.appendRetentionAction(new RetentionRecordDraft(RetentionAction.PURGE,
                            OperationId.of(job.value() + "-after-" + current.resumeAfter()
                                    .map(id -> String.valueOf(id.value())).orElse("none")),
                            ActorRef.of("system:benchmark"), Optional.empty(),
                            RequestDigest.sha256("purge|" + job.value() + "|after=" + current.resumeAfter()),
                            "PURGED " + counts.jobInstances(), Instant.now()));
                }
                return found;
            });
            if (survey.candidates().isEmpty()) {
                break;
            }
            run.batchNanos().add(System.nanoTime() - batchStarted);
            run.surveyNanos().add(split[0] - batchStarted);
            run.applyNanos().add(split[1] - split[0]);
            request = survey.nextRequest();
        }
        return new Run(run.batchNanos(), run.surveyNanos(), run.applyNanos(), run.deleted(),
                (System.nanoTime() - started) / 1e9);
    }

    /**
     * Inserts the instances set-based, a chunk per statement, with their canonical keys; then the
     * executions and steps with one statement each; then vacuums and checkpoints, as the server would
     * have long done for day-old rows.
     */
    private void seed(JobName job, int instances) {
        OffsetDateTime created = OffsetDateTime.now(ZoneOffset.UTC).minusDays(2).truncatedTo(ChronoUnit.MICROS);
        OffsetDateTime ended = created.plusHours(1);
        database.withConnection(connection -> {
            for (int from = 0; from < instances; from += SEED_CHUNK) {
                int size = Math.min(SEED_CHUNK, instances - from);
                byte[][] keys = new byte[size][];
                byte[][] digests = new byte[size][];
                for (int i = 0; i < size; i++) {
                    JobInstanceKey key = JobInstanceKey.of(job, Map.of("run", (long) (from + i)));
                    keys[i] = key.canonicalBytes();
                    digests[i] = key.digest();
                }
                database.update(connection, INSERT_INSTANCES, job.value(), created,
                        connection.createArrayOf("bytea", keys), connection.createArrayOf("bytea", digests));
            }
            for (String children : List.of(INSERT_EXECUTIONS, INSERT_STEPS)) {
                database.update(connection, children, created, created, ended, ended, job.value());
            }
            return null;
        });
        database.execute("VACUUM (ANALYZE) {p}job_instance, {p}job_execution, {p}step_execution");
        database.checkpoint();
    }

    /** The median batch time of each tenth of the run, first to last: flat when cost does not grow. */
    private static List<Double> tenths(List<Long> batchNanos) {
        List<Double> tenths = new ArrayList<>();
        int size = batchNanos.size();
        for (int tenth = 0; tenth < 10 && size >= 10; tenth++) {
            tenths.add(new Latencies(batchNanos.subList(tenth * size / 10, (tenth + 1) * size / 10)).percentileMillis(50));
        }
        return tenths;
    }
}
