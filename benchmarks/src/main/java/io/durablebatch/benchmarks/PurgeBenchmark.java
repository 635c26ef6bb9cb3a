package io.durablebatch.benchmarks;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.repository.ActorRef;
import io.durablebatch.repository.JobInstanceKey;
import io.durablebatch.repository.JobName;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.OperationId;
import io.durablebatch.repository.RequestDigest;
import io.durablebatch.retention.PurgeCounts;
import io.durablebatch.retention.PurgePlanRequest;
import io.durablebatch.retention.PurgeSurvey;
import io.durablebatch.retention.RetentionAction;
import io.durablebatch.retention.RetentionRecordDraft;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.MetadataSql;
import io.durablebatch.runtime.sql.RepositoryDataSource;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * Purge throughput: finished instances, each with 2 executions (FAILED, then COMPLETED) of 3 steps
 * each, purged in batches the way an operator's retention job would: one unit of work per batch
 * that surveys the next batch, applies it and records the retention audit row. Reports instances
 * per second and the time per batch at the start and at the end, which must stay flat.
 */
@ApplicationScoped
public class PurgeBenchmark {

    public static final int INSTANCES = 100_000;
    public static final int BATCH = 1_000;
    private static final int EXECUTIONS = 2;
    private static final int STEPS = 3;
    private static final int SEED_CHUNK = 10_000;
    private static final int WARM_UP_BATCHES = 20;
    /** Batches whose median time is compared at the start and the end of the run. */
    private static final int EDGE = 10;

    private final JobRepository repository;
    private final MetadataSql sql;
    private final AgroalDataSource dataSource;
    private final RepositoryTables tables;

    PurgeBenchmark(JobRepository repository, MetadataSql sql, @RepositoryDataSource AgroalDataSource dataSource,
            RepositoryTables tables) {
        this.repository = repository;
        this.sql = sql;
        this.dataSource = dataSource;
        this.tables = tables;
    }

    /** Seeds {@value #INSTANCES} instances and purges them in batches of {@value #BATCH}. */
    public List<String> run() {
        return run(INSTANCES, BATCH);
    }

    public List<String> run(int instances, int batch) {
        // JIT compilation and the driver's switch to server-prepared statements happen here, not
        // in the first measured batches
        JobName warmUp = JobName.of("purge-bench-warm-up-" + UUID.randomUUID());
        seed(warmUp, WARM_UP_BATCHES * batch);
        purgeAll(warmUp, batch);

        JobName job = JobName.of("purge-bench-" + UUID.randomUUID());
        long seedStart = System.nanoTime();
        seed(job, instances);
        double seedSeconds = (System.nanoTime() - seedStart) / 1e9;

        Optional<PgStatementCounter> pg = PgStatementCounter.open(dataSource);
        Map<String, Long> pgBefore = pg.map(PgStatementCounter::snapshot).orElse(Map.of());
        long jdbcBefore = sql.statementsExecuted();
        Run run = purgeAll(job, batch);
        long jdbcStatements = sql.statementsExecuted() - jdbcBefore;
        Optional<Long> pgStatements = pg.map(counter -> PgStatementCounter.total(
                PgStatementCounter.delta(pgBefore, counter.snapshot())));

        int batches = run.batchNanos().size();
        long purged = run.deleted().getOrDefault("job_instance", 0L);
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("workload", "purge");
        line.put("date", LocalDate.now().toString());
        line.put("instances", purged);
        line.put("executionsPerInstance", EXECUTIONS);
        line.put("stepsPerExecution", STEPS);
        line.put("batchSize", batch);
        line.put("batches", batches);
        line.put("seconds", run.seconds());
        line.put("instancesPerSecond", purged / run.seconds());
        line.put("batchMsFirst" + EDGE + "Median", millis(median(run.batchNanos().subList(0, Math.min(EDGE, batches)))));
        line.put("batchMsLast" + EDGE + "Median",
                millis(median(run.batchNanos().subList(Math.max(0, batches - EDGE), batches))));
        line.put("batchMsMedianPerTenth", tenths(run.batchNanos()));
        line.put("batchMsMedian", millis(median(run.batchNanos())));
        line.put("batchMsMax", millis(run.batchNanos().stream().mapToLong(Long::longValue).max().orElse(0)));
        line.put("surveyMsMedian", millis(median(run.surveyNanos())));
        line.put("applyMsMedian", millis(median(run.applyNanos())));
        // the final, empty survey is counted too
        line.put("jdbcStatementsPerBatch", batches == 0 ? 0.0 : (double) jdbcStatements / batches);
        line.put("pgStatementsPerBatch", pgStatements.map(n -> batches == 0 ? 0.0 : (double) n / batches).orElse(null));
        line.put("deletedRows", run.deleted());
        line.put("seedSeconds", seedSeconds);
        line.put("warmUpInstances", WARM_UP_BATCHES * batch);
        return List.of(JsonLine.of(line));
    }

    /** Times of one purge of every instance of {@code job}, batch by batch. */
    private record Run(List<Long> batchNanos, List<Long> surveyNanos, List<Long> applyNanos, Map<String, Long> deleted,
            double seconds) {
    }

    /**
     * Purges every instance of {@code job} as a retention job would: per batch, one unit of work that
     * surveys, applies and records the audit row; the next survey resumes after the last candidate.
     */
    private Run purgeAll(JobName job, int batch) {
        Run run = new Run(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new LinkedHashMap<>(), 0);
        PurgePlanRequest request = PurgePlanRequest.before(Instant.now().minus(Duration.ofHours(1)), batch).forJob(job);
        long start = System.nanoTime();
        while (true) {
            PurgePlanRequest current = request;
            long batchStart = System.nanoTime();
            long[] split = new long[2];
            PurgeSurvey survey = QuarkusTransaction.requiringNew().call(() -> {
                PurgeSurvey found = repository.purgeSurvey(current);
                split[0] = System.nanoTime();
                if (!found.candidates().isEmpty()) {
                    PurgeCounts counts = repository.applyPurge(found.plan());
                    split[1] = System.nanoTime();
                    counts.deletedRows().forEach((table, rows) -> run.deleted().merge(table, rows, Long::sum));
                    repository.appendRetentionAction(new RetentionRecordDraft(RetentionAction.PURGE,
                            OperationId.of("purge-bench-" + UUID.randomUUID()), ActorRef.of("system:benchmark"),
                            Optional.empty(), RequestDigest.sha256("purge|" + job + "|after=" + current.resumeAfter()),
                            "PURGED " + counts.jobInstances(), Instant.now()));
                }
                return found;
            });
            if (survey.candidates().isEmpty()) {
                break;
            }
            run.batchNanos().add(System.nanoTime() - batchStart);
            run.surveyNanos().add(split[0] - batchStart);
            run.applyNanos().add(split[1] - split[0]);
            request = survey.nextRequest();
        }
        return new Run(run.batchNanos(), run.surveyNanos(), run.applyNanos(), run.deleted(),
                (System.nanoTime() - start) / 1e9);
    }

    /**
     * Inserts the instances set-based, a chunk per statement, with their canonical keys; then the
     * executions and steps with one statement each; then vacuums and checkpoints, as the server
     * would have long done for day-old rows.
     */
    private void seed(JobName job, int instances) {
        OffsetDateTime created = OffsetDateTime.now(ZoneOffset.UTC).minusDays(2).truncatedTo(ChronoUnit.MICROS);
        OffsetDateTime ended = created.plusHours(1);
        String insertInstances = tables.sql("INSERT INTO {p}job_instance (job_name, key_bytes, key_digest, created_at) "
                + "SELECT ?, k.bytes, k.digest, ? FROM unnest(?::bytea[], ?::bytea[]) AS k(bytes, digest)");
        String insertExecutions = tables.sql("INSERT INTO {p}job_execution (job_instance_id, job_name, attempt, status, "
                + "exit_code, created_at, started_at, ended_at, last_updated, version) "
                + "SELECT i.id, i.job_name, a, s, s, ?, ?, ?, ?, 2 FROM {p}job_instance i "
                + "CROSS JOIN LATERAL (VALUES (1, 'FAILED'), (2, 'COMPLETED')) AS attempts(a, s) "
                + "WHERE i.job_name = ? ORDER BY i.id, a");
        String insertSteps = tables.sql("INSERT INTO {p}step_execution (job_execution_id, job_instance_id, step_name, "
                + "status, exit_code, created_at, started_at, ended_at, last_updated, version) "
                + "SELECT e.id, e.job_instance_id, 'step-' || s, 'COMPLETED', 'COMPLETED', ?, ?, ?, ?, 2 "
                + "FROM {p}job_execution e CROSS JOIN generate_series(1, " + STEPS + ") AS s "
                + "WHERE e.job_name = ? ORDER BY e.id, s");
        try (Connection connection = dataSource.getConnection()) {
            for (int from = 0; from < instances; from += SEED_CHUNK) {
                int size = Math.min(SEED_CHUNK, instances - from);
                byte[][] keys = new byte[size][];
                byte[][] digests = new byte[size][];
                for (int i = 0; i < size; i++) {
                    JobInstanceKey key = JobInstanceKey.of(job, Map.of("run", (long) (from + i)));
                    keys[i] = key.canonicalBytes();
                    digests[i] = key.digest();
                }
                try (PreparedStatement insert = connection.prepareStatement(insertInstances)) {
                    insert.setString(1, job.value());
                    insert.setObject(2, created);
                    insert.setArray(3, connection.createArrayOf("bytea", keys));
                    insert.setArray(4, connection.createArrayOf("bytea", digests));
                    insert.executeUpdate();
                }
            }
            for (String children : Arrays.asList(insertExecutions, insertSteps)) {
                try (PreparedStatement insert = connection.prepareStatement(children)) {
                    insert.setObject(1, created);
                    insert.setObject(2, created);
                    insert.setObject(3, ended);
                    insert.setObject(4, ended);
                    insert.setString(5, job.value());
                    insert.executeUpdate();
                }
            }
            try (Statement maintenance = connection.createStatement()) {
                maintenance.execute(tables.sql("VACUUM (ANALYZE) {p}job_instance, {p}job_execution, {p}step_execution"));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("seeding failed: " + e.getMessage(), e);
        }
        checkpoint();
    }

    /**
     * Day-old rows are long on disk: no checkpoint of the seed's writes should compete with the
     * purge. Needs a superuser or the pg_checkpoint role; without either the run goes on.
     */
    private void checkpoint() {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("CHECKPOINT");
        } catch (SQLException e) {
            System.err.println("purge benchmark: no CHECKPOINT after seeding (" + e.getMessage() + ")");
        }
    }

    /** The median batch time of each tenth of the run, first to last: flat when cost does not grow. */
    private static List<Double> tenths(List<Long> batchNanos) {
        List<Double> tenths = new ArrayList<>();
        int size = batchNanos.size();
        for (int tenth = 0; tenth < 10 && size >= 10; tenth++) {
            tenths.add(millis(median(batchNanos.subList(tenth * size / 10, (tenth + 1) * size / 10))));
        }
        return tenths;
    }

    static long median(List<Long> values) {
        if (values.isEmpty()) {
            return 0;
        }
        List<Long> sorted = new ArrayList<>(values);
        sorted.sort(null);
        return sorted.get(sorted.size() / 2);
    }

    static double millis(long nanos) {
        return nanos / 1e6;
    }
}
