package io.durablebatch.runtime.retention;

import static io.durablebatch.runtime.repository.ExecutionRows.UNRESOLVED_STATUSES;
import static io.durablebatch.runtime.repository.ExecutionRows.storedTime;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobName;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.retention.PurgeCandidate;
import io.durablebatch.repository.retention.PurgeCounts;
import io.durablebatch.repository.retention.PurgePlan;
import io.durablebatch.repository.retention.PurgePlanRequest;
import io.durablebatch.repository.retention.PurgeSurvey;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.MetadataSql;
import io.durablebatch.runtime.sql.SqlRow;
import io.durablebatch.runtime.sql.SqlStatement;

/**
 * Purge: a bounded survey of purgeable instances, then the re-validated, set-based deletion of one
 * batch with everything the instances own.
 * <p>
 * Applying a plan costs a fixed number of statements whatever its size: lock the instances (in id
 * order), re-validate them all (locking their executions, in id order), then one {@code DELETE}
 * per owned table, children first. Every row lock is taken in id order before anything is deleted,
 * so concurrent purges of overlapping plans never deadlock: the later one queues on the first
 * instance they share, then finds it gone and reports its plan stale, having deleted nothing.
 */
@ApplicationScoped
public class PurgeStore {

    /** The step executions of the instances bound as {@code :instanceIds}, a {@code bigint[]}. */
    private static final String STEPS_OF_INSTANCES = """
            (SELECT id FROM {p}step_execution WHERE job_instance_id = ANY (:instanceIds))""";

    /**
     * The tables whose rows belong to a job instance, children before parents, each with the
     * condition that selects the rows of the instances bound as {@code :instanceIds}, a
     * {@code bigint[]}. A table that references an instance, execution or step is one more line
     * here, above the table it references.
     */
    public static final List<OwnedRows> OWNED_ROWS = List.of(
            new OwnedRows("step_partition", "parent_step_execution_id IN " + STEPS_OF_INSTANCES),
            new OwnedRows("step_partition_plan", "parent_step_execution_id IN " + STEPS_OF_INSTANCES),
            new OwnedRows("flow_decision", "job_instance_id = ANY (:instanceIds)"),
            new OwnedRows("flow_decision_head", "job_execution_id IN "
                    + "(SELECT id FROM {p}job_execution WHERE job_instance_id = ANY (:instanceIds))"),
            new OwnedRows("flow_node", "job_instance_id = ANY (:instanceIds)"),
            new OwnedRows("step_execution", "job_instance_id = ANY (:instanceIds)"),
            new OwnedRows("job_execution", "job_instance_id = ANY (:instanceIds)"),
            new OwnedRows("job_instance", "id = ANY (:instanceIds)"));

    /**
     * The tables that name instances or executions but are never purged: the append-only audits,
     * which outlive what they describe, holds, whose instances are never purge candidates, and each
     * job's schedule, whose state (paused, the last fire time) outlives the history it launched.
     */
    public static final List<String> RETAINED_TABLES = List.of("recovery_decision", "operator_request",
            "retention_action", "retention_hold", "partition_release", "schedule");

    /** How many changed candidates a stale plan's refusal names. */
    private static final int STALE_SAMPLE = 5;

    /** One owned table and how its rows are found from instance ids. */
    public record OwnedRows(String table, String ofInstances) {
    }

    private final MetadataSql sql;
    private final SqlStatement survey;
    private final SqlStatement surveyOfJob;
    private final SqlStatement lockInstances;
    private final SqlStatement changedCandidates;
    private final Map<String, SqlStatement> deletes = new LinkedHashMap<>();

    PurgeStore(MetadataSql sql, RepositoryTables tables) {
        this.sql = sql;
        // Instances in id order, each with an aggregate of its executions (one probe of the
        // (job_instance_id, attempt) index): eligible when none is unresolved or ended at or after the
        // cutoff, no hold exists, and the latest status passes the filter.
        String surveyTemplate = """
                SELECT i.id, i.job_name, x.executions, x.observed_version, x.latest_status, x.last_ended_at
                FROM {p}job_instance i
                CROSS JOIN LATERAL (
                    SELECT count(*)::int AS executions, COALESCE(sum(e.version + 1), 0)::bigint AS observed_version,
                           (array_agg(e.status ORDER BY e.attempt DESC))[1] AS latest_status,
                           max(e.ended_at) AS last_ended_at,
                           COALESCE(bool_or(e.status IN {unresolved} OR e.ended_at IS NULL OR e.ended_at >= :cutoff),
                                    false) AS blocked
                    FROM {p}job_execution e
                    WHERE e.job_instance_id = i.id) x
                WHERE i.id > :resumeAfter
                  AND i.created_at < :cutoff{ofJob}
                  AND NOT x.blocked
                  AND (x.latest_status = ANY (:statuses) OR (x.executions = 0 AND :unfiltered))
                  AND NOT EXISTS (SELECT 1 FROM {p}retention_hold h WHERE h.job_instance_id = i.id)
                ORDER BY i.id
                LIMIT :limit""";
        this.survey = tables.statement("survey", surveyTemplate, Map.of("unresolved", UNRESOLVED_STATUSES, "ofJob", ""));
        this.surveyOfJob = tables.statement("surveyOfJob", surveyTemplate,
                Map.of("unresolved", UNRESOLVED_STATUSES, "ofJob", "\n  AND i.job_name = :jobName"));
        this.lockInstances = tables.statement("lockInstances", """
                SELECT id FROM {p}job_instance
                WHERE id = ANY (:instanceIds)
                ORDER BY id
                FOR UPDATE""");
        // Runs after the instances are locked, so no execution or hold can appear for them any more,
        // and with a snapshot taken after those locks were granted, so it sees every one that did.
        // The executions are locked too: a concurrent mutation waits for this purge and then finds
        // its row gone, instead of changing what was validated. An unresolved execution refuses the
        // plan even when the counts match, so no hand-made plan can purge a running instance.
        this.changedCandidates = tables.statement("changedCandidates", """
                WITH plan AS (SELECT * FROM unnest(:instanceIds::bigint[], :executions::int[], :observedVersions::bigint[])
                              AS p(id, executions, observed_version)),
                locked AS MATERIALIZED (SELECT job_instance_id, status, version FROM {p}job_execution
                                        WHERE job_instance_id = ANY (:instanceIds)
                                        ORDER BY id
                                        FOR UPDATE),
                actual AS (SELECT job_instance_id, count(*) AS executions, sum(version + 1) AS observed_version,
                                  bool_or(status IN {unresolved}) AS unresolved
                           FROM locked
                           GROUP BY job_instance_id)
                SELECT p.id, p.executions AS planned_executions, p.observed_version AS planned_version,
                       COALESCE(a.executions, 0) AS executions, COALESCE(a.observed_version, 0) AS observed_version,
                       COALESCE(a.unresolved, false) AS unresolved,
                       EXISTS (SELECT 1 FROM {p}retention_hold h WHERE h.job_instance_id = p.id) AS held
                FROM plan p
                LEFT JOIN actual a ON a.job_instance_id = p.id
                WHERE COALESCE(a.executions, 0) <> p.executions
                   OR COALESCE(a.observed_version, 0) <> p.observed_version
                   OR COALESCE(a.unresolved, false)
                   OR EXISTS (SELECT 1 FROM {p}retention_hold h WHERE h.job_instance_id = p.id)
                ORDER BY p.id
                LIMIT {staleSample}""",
                Map.of("unresolved", UNRESOLVED_STATUSES, "staleSample", String.valueOf(STALE_SAMPLE)));
        for (OwnedRows owned : OWNED_ROWS) {
            deletes.put(owned.table(), tables.statement("deletes[" + owned.table() + "]", """
                    DELETE FROM {p}{table}
                    WHERE {ofInstances}""", Map.of("table", owned.table(), "ofInstances", owned.ofInstances())));
        }
    }

    public PurgeSurvey survey(PurgePlanRequest request) {
        Set<ExecutionStatus> statuses = request.statuses().isEmpty() ? PurgePlanRequest.FINISHED : request.statuses();
        String[] statusNames = statuses.stream().map(Enum::name).sorted().toArray(String[]::new);
        List<PurgeCandidate> candidates = sql.query(request.jobName().isPresent() ? surveyOfJob : survey, params -> {
            params.time("cutoff", storedTime(request.cutoff()))
                    .bigint("resumeAfter", request.resumeAfter().map(JobInstanceId::value).orElse(0L))
                    .texts("statuses", statusNames)
                    .bool("unfiltered", request.statuses().isEmpty())
                    .integer("limit", request.limit());
            if (request.jobName().isPresent()) {
                params.text("jobName", request.jobName().get().value());
            }
        }, PurgeStore::candidate);
        return new PurgeSurvey(request, candidates);
    }

    public PurgeCounts apply(PurgePlan plan) {
        Map<String, Long> counts = new LinkedHashMap<>();
        if (plan.isEmpty()) {
            OWNED_ROWS.forEach(owned -> counts.put(owned.table(), 0L));
            return new PurgeCounts(counts);
        }
        Long[] ids = plan.candidates().stream().map(c -> c.jobInstanceId().value()).toArray(Long[]::new);
        List<Long> locked = sql.query(lockInstances, params -> params.bigints("instanceIds", ids),
                row -> row.bigint("id"));
        if (locked.size() != ids.length) {
            Set<Long> gone = new HashSet<>(List.of(ids));
            gone.removeAll(locked);
            throw stale(plan, "job instances " + sample(gone) + " no longer exist");
        }
        List<String> changed = sql.query(changedCandidates, params -> params.bigints("instanceIds", ids)
                .integers("executions",
                        plan.candidates().stream().map(PurgeCandidate::executions).toArray(Integer[]::new))
                .bigints("observedVersions",
                        plan.candidates().stream().map(c -> c.observedVersion().value()).toArray(Long[]::new)),
                PurgeStore::describeChange);
        if (!changed.isEmpty()) {
            throw stale(plan, String.join("; ", changed));
        }
        // children first; the instances are locked already, in id order
        deletes.forEach((table, delete) -> counts.put(table,
                (long) sql.update(delete, params -> params.bigints("instanceIds", ids))));
        return new PurgeCounts(counts);
    }

    private static RepositoryException stale(PurgePlan plan, String why) {
        return new RepositoryException(RepositoryError.RETENTION_PLAN_STALE, "the purge plan of "
                + plan.candidates().size() + " instances changed since its survey, nothing was deleted: " + why);
    }

    private static String sample(Set<Long> ids) {
        List<Long> sorted = new ArrayList<>(ids);
        sorted.sort(null);
        return sorted.stream().limit(STALE_SAMPLE).map(String::valueOf).collect(Collectors.joining(", "))
                + (sorted.size() > STALE_SAMPLE ? " and " + (sorted.size() - STALE_SAMPLE) + " more" : "");
    }

    private static String describeChange(SqlRow row) {
        String instance = "job instance " + row.bigint("id");
        if (row.bool("held")) {
            return instance + " is held";
        }
        if (row.bool("unresolved")) {
            return instance + " has an active or UNKNOWN execution";
        }
        return instance + " has " + row.bigint("executions") + " executions at observed version "
                + row.bigint("observed_version") + ", not " + row.integer("planned_executions") + " at "
                + row.bigint("planned_version");
    }

    private static PurgeCandidate candidate(SqlRow row) {
        return new PurgeCandidate(new JobInstanceId(row.bigint("id")), new JobName(row.text("job_name")),
                row.integer("executions"), new ExecutionVersion(row.bigint("observed_version")),
                row.optionalText("latest_status").map(ExecutionStatus::valueOf), row.optionalTime("last_ended_at"));
    }
}
