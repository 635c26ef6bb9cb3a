package io.durablebatch.runtime.partition;

import static io.durablebatch.runtime.partition.PartitionRows.COLUMNS;
import static io.durablebatch.runtime.partition.PartitionRows.COUNTER_COLUMNS;
import static io.durablebatch.runtime.repository.ExecutionRows.UNRESOLVED_STATUSES;
import static io.durablebatch.runtime.repository.ExecutionRows.storedTime;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.repository.Page;
import io.durablebatch.repository.PageRequest;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.flow.NodeId;
import io.durablebatch.repository.partition.OpenPartitionPlan;
import io.durablebatch.repository.partition.PartitionPlanEntry;
import io.durablebatch.repository.partition.StepPartition;
import io.durablebatch.runtime.DurableBatchConfig;
import io.durablebatch.runtime.entity.StepPartitionEntity;
import io.durablebatch.runtime.repository.Keyset;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.EntityQuery;
import io.durablebatch.runtime.sql.MetadataSql;
import io.durablebatch.runtime.sql.SqlRow;
import io.durablebatch.runtime.sql.SqlStatement;

/**
 * Partition plans: created whole before any worker starts, read back in key byte order, and carried
 * into a restarted parent with the completed results kept.
 */
@ApplicationScoped
public class PartitionStore {

    private static final Keyset KEYSET = Keyset.ascending("partition");

    private final MetadataSql sql;
    private final int maxPlanSize;
    private final SqlStatement create;
    private final EntityQuery<StepPartitionEntity> selectPlan;
    private final SqlStatement restart;
    private final SqlStatement stepFacts;
    private final SqlStatement open;
    private final SqlStatement page;
    private final SqlStatement parentsIn;

    PartitionStore(MetadataSql sql, RepositoryTables tables, DurableBatchConfig config) {
        this.sql = sql;
        this.maxPlanSize = config.partitions().maxPlanSize();
        if (maxPlanSize <= 0) {
            throw new IllegalArgumentException("quarkus.durable-batch.partitions.max-plan-size must be positive, got "
                    + maxPlanSize);
        }
        // One round trip whatever the plan size: the entries travel as two arrays and are unnested
        // with their one-based ordinal. The header insert is the gate: when the parent is not active
        // or a plan exists (or a racing creator wins), it inserts nothing and so does the rest.
        this.create = tables.statement("create", """
                WITH parent AS (SELECT id FROM {p}step_execution
                                WHERE id = :parentId AND status IN ('STARTING', 'STARTED') FOR SHARE),
                plan AS (INSERT INTO {p}step_partition_plan (parent_step_execution_id, partition_count, created_at)
                         SELECT id, :partitionCount, :now FROM parent
                         ON CONFLICT DO NOTHING
                         RETURNING parent_step_execution_id)
                INSERT INTO {p}step_partition (parent_step_execution_id, ordinal, partition_key, input, status,
                        exit_code, created_at, last_updated)
                SELECT plan.parent_step_execution_id, e.ordinal, e.partition_key, e.input, 'STARTING', 'EXECUTING',
                       :now, :now
                FROM plan, unnest(CAST(:keys AS bytea[]), CAST(:inputs AS bytea[]))
                     WITH ORDINALITY AS e(partition_key, input, ordinal)
                RETURNING {columns}""", Map.of("columns", COLUMNS));
        this.page = tables.statement("page", """
                SELECT {columns} FROM {p}step_partition
                WHERE parent_step_execution_id = :parentId AND ordinal > :after
                ORDER BY parent_step_execution_id, ordinal
                LIMIT :limit""", Map.of("columns", COLUMNS));
        // The drill-down of one execution marks its partitioned steps with this one statement, whatever
        // the number of its step attempts (a partitioned step's workers are attempts of the execution
        // too): the execution's range of the step index, each attempt probing the plans' primary key.
        // A plan is never published without its partitions, so having a plan is having partitions.
        this.parentsIn = tables.statement("parentsIn", """
                SELECT s.id FROM {p}step_execution s
                WHERE s.job_execution_id = :jobExecutionId
                  AND EXISTS (SELECT 1 FROM {p}step_partition_plan plan WHERE plan.parent_step_execution_id = s.id)
                ORDER BY s.id""");
        this.selectPlan = tables.query("selectPlan", StepPartitionEntity.class, """
                from DurableBatchStepPartition p where p.parentStepExecutionId = :parentId order by p.partitionKey""");
        // The restart statement. The source's partitions are first settled: an assigned partition
        // takes its worker's durable result, since the worker may have ended (or been resolved by
        // recovery) without the partition being completed. Settled COMPLETED results are carried over
        // with the worker they came from; everything else becomes unassigned STARTING work. The
        // statement publishes nothing unless the source job is STOPPED or FAILED, no source worker is
        // still unresolved, and the target is an active step of the same instance without a plan.
        String settledCounters = COUNTER_COLUMNS.stream()
                .map(c -> "CASE WHEN p.status = 'STARTED' THEN w." + c + " ELSE p." + c + " END AS " + c)
                .collect(Collectors.joining(", "));
        String keptCounters = COUNTER_COLUMNS.stream()
                .map(c -> "CASE WHEN s.status = 'COMPLETED' THEN s." + c + " ELSE 0 END")
                .collect(Collectors.joining(", "));
        this.restart = tables.statement("restart", """
                WITH source AS (SELECT s.id, s.job_instance_id
                                FROM {p}step_execution s
                                JOIN {p}job_execution j ON j.id = s.job_execution_id
                                WHERE s.id = :sourceId
                                  AND j.status IN ('STOPPED', 'FAILED')),
                settled AS (SELECT p.id, p.ordinal, p.partition_key, p.input, p.worker_step_execution_id, p.assigned_at,
                                   CASE WHEN p.status = 'STARTED' THEN w.status ELSE p.status END AS status,
                                   CASE WHEN p.status = 'STARTED' THEN w.exit_code ELSE p.exit_code END AS exit_code,
                                   CASE WHEN p.status = 'STARTED' THEN w.exit_description
                                        ELSE p.exit_description END AS exit_description,
                                   CASE WHEN p.status = 'STARTED' THEN w.ended_at ELSE p.completed_at END AS completed_at,
                                   {settledCounters}
                            FROM {p}step_partition p
                            LEFT JOIN {p}step_execution w ON w.id = p.worker_step_execution_id
                            WHERE p.parent_step_execution_id = (SELECT id FROM source)),
                target AS (SELECT t.id
                           FROM {p}step_execution t, source
                           WHERE t.id = :targetId
                             AND t.status IN ('STARTING', 'STARTED')
                             AND t.job_instance_id = source.job_instance_id
                             AND NOT EXISTS (SELECT 1 FROM settled
                                             WHERE worker_step_execution_id IS NOT NULL AND status IN {unresolved})
                           FOR SHARE OF t),
                plan AS (INSERT INTO {p}step_partition_plan (parent_step_execution_id, partition_count, restarted_from,
                                 created_at)
                         SELECT target.id, count(*), (SELECT id FROM source), :now
                         FROM target, settled
                         GROUP BY target.id
                         ON CONFLICT DO NOTHING
                         RETURNING parent_step_execution_id)
                INSERT INTO {p}step_partition (parent_step_execution_id, ordinal, partition_key, input, status,
                        worker_step_execution_id, exit_code, exit_description, {counters},
                        restarted_from, created_at, assigned_at, completed_at, last_updated)
                SELECT plan.parent_step_execution_id, s.ordinal, s.partition_key, s.input,
                       CASE WHEN s.status = 'COMPLETED' THEN 'COMPLETED' ELSE 'STARTING' END,
                       CASE WHEN s.status = 'COMPLETED' THEN s.worker_step_execution_id END,
                       CASE WHEN s.status = 'COMPLETED' THEN s.exit_code ELSE 'EXECUTING' END,
                       CASE WHEN s.status = 'COMPLETED' THEN s.exit_description ELSE '' END,
                       {keptCounters},
                       s.id, :now, CASE WHEN s.status = 'COMPLETED' THEN s.assigned_at END,
                       CASE WHEN s.status = 'COMPLETED' THEN s.completed_at END, :now
                FROM plan, settled s
                RETURNING {columns}""",
                Map.of("settledCounters", settledCounters, "keptCounters", keptCounters, "counters",
                        String.join(", ", COUNTER_COLUMNS), "unresolved", UNRESOLVED_STATUSES, "columns", COLUMNS));
        this.stepFacts = tables.statement("stepFacts", """
                SELECT s.status, s.job_instance_id, j.status AS job_status,
                       EXISTS (SELECT 1 FROM {p}step_partition_plan WHERE parent_step_execution_id = s.id) AS planned,
                       (SELECT min(p.ordinal)
                        FROM {p}step_partition p
                        JOIN {p}step_execution w ON w.id = p.worker_step_execution_id
                        WHERE p.parent_step_execution_id = s.id
                          AND p.status = 'STARTED'
                          AND w.status IN {unresolved}) AS busy_ordinal
                FROM {p}step_execution s
                JOIN {p}job_execution j ON j.id = s.job_execution_id
                WHERE s.id = :id""", Map.of("unresolved", UNRESOLVED_STATUSES));
        // Driven by the partial index of running flow steps (V6): a handful of rows whatever the
        // history; the unassigned partition index answers each EXISTS with one probe.
        this.open = tables.statement("open", """
                SELECT s.id, s.job_execution_id, s.node_id, j.job_name, plan.restarted_from
                FROM {p}step_execution s
                JOIN {p}job_execution j ON j.id = s.job_execution_id
                JOIN {p}step_partition_plan plan ON plan.parent_step_execution_id = s.id
                WHERE s.status = 'STARTED'
                  AND s.node_id IS NOT NULL
                  AND j.status = 'STARTED'
                  AND j.job_name = ANY (:jobNames)
                  AND EXISTS (SELECT 1 FROM {p}step_partition p
                              WHERE p.parent_step_execution_id = s.id AND p.status = 'STARTING')
                ORDER BY s.id
                LIMIT :limit""");
    }

    public List<StepPartition> create(StepExecutionId parent, List<PartitionPlanEntry> entries) {
        checkPlan(parent, entries);
        Instant now = storedTime(Instant.now());
        byte[][] keys = new byte[entries.size()][];
        byte[][] inputs = new byte[entries.size()][];
        for (int i = 0; i < entries.size(); i++) {
            keys[i] = entries.get(i).key();
            inputs[i] = entries.get(i).input();
        }
        List<StepPartition> created = sql.query(create, params -> params.bigint("parentId", parent.value())
                .integer("partitionCount", entries.size()).time("now", now).byteArrays("keys", keys)
                .byteArrays("inputs", inputs), StepPartitionEntity.class, PartitionRows::partition);
        if (created.isEmpty()) {
            throw createRefusal(parent);
        }
        return PartitionRows.inKeyOrder(created);
    }

    public List<StepPartition> plan(StepExecutionId parent) {
        return sql.list(selectPlan, Map.of("parentId", parent.value())).stream().map(PartitionRows::partition).toList();
    }

    /** One page of the plan in ordinal order: the order its entries were given in. */
    public Page<StepPartition> page(StepExecutionId parent, PageRequest request) {
        return KEYSET.page(sql.query(page, params -> params.bigint("parentId", parent.value())
                .bigint("after", KEYSET.after(request)).integer("limit", KEYSET.limit(request)),
                StepPartitionEntity.class, row -> row), request, row -> row.ordinal, PartitionRows::partition);
    }

    /** The step attempts of the execution that are the parents of a partition plan, in creation order. */
    public List<StepExecutionId> parentsIn(JobExecutionId jobExecutionId) {
        return sql.queryByJdbc(parentsIn, params -> params.bigint("jobExecutionId", jobExecutionId.value()),
                row -> new StepExecutionId(row.bigint("id")));
    }

    public List<OpenPartitionPlan> open(Collection<JobName> jobNames, int limit) {
        String[] names = jobNames.stream().map(JobName::value).distinct().toArray(String[]::new);
        return sql.query(open, params -> params.texts("jobNames", names).integer("limit", limit),
                row -> new OpenPartitionPlan(
                        new StepExecutionId(row.bigint("id")), new JobExecutionId(row.bigint("job_execution_id")),
                        JobName.of(row.text("job_name")), NodeId.of(row.text("node_id")),
                        row.optionalBigint("restarted_from").map(StepExecutionId::new)));
    }

    /** The statement {@link #open} runs (its parameters {@code :jobNames}, then {@code :limit}): a plan inspection needs it. */
    public SqlStatement openStatement() {
        return open;
    }

    public List<StepPartition> restart(StepExecutionId source, StepExecutionId target) {
        Instant now = storedTime(Instant.now());
        List<StepPartition> carried = sql.query(restart, params -> params.bigint("sourceId", source.value())
                .bigint("targetId", target.value()).time("now", now), StepPartitionEntity.class, PartitionRows::partition);
        if (carried.isEmpty()) {
            throw restartRefusal(source, target);
        }
        return PartitionRows.inKeyOrder(carried);
    }

    /** The refusals that need no database: they are checked before anything is sent. */
    private void checkPlan(StepExecutionId parent, List<PartitionPlanEntry> entries) {
        if (entries.isEmpty()) {
            throw new RepositoryException(RepositoryError.PARTITION_PLAN_EMPTY, "the partition plan of step execution "
                    + parent + " has no entry");
        }
        if (entries.size() > maxPlanSize) {
            throw new RepositoryException(RepositoryError.PARTITION_PLAN_TOO_LARGE, "the partition plan of step "
                    + "execution " + parent + " has " + entries.size() + " entries, more than "
                    + "quarkus.durable-batch.partitions.max-plan-size=" + maxPlanSize);
        }
        Map<ByteBuffer, Integer> ordinals = new HashMap<>(entries.size() * 2);
        for (int i = 0; i < entries.size(); i++) {
            byte[] key = entries.get(i).key();
            Integer previous = ordinals.putIfAbsent(ByteBuffer.wrap(key), i + 1);
            if (previous != null) {
                throw new RepositoryException(RepositoryError.PARTITION_KEY_DUPLICATE, "entries " + previous + " and "
                        + (i + 1) + " of the partition plan of step execution " + parent + " have the same key "
                        + HexFormat.of().formatHex(key));
            }
        }
    }

    /** Names the rule that refused a plan. Runs only on the refusal path. */
    private RepositoryException createRefusal(StepExecutionId parent) {
        StepFacts facts = facts(parent, "step execution");
        if (facts.planned()) {
            return new RepositoryException(RepositoryError.PARTITION_PLAN_EXISTS, "step execution " + parent
                    + " already has a partition plan");
        }
        return new RepositoryException(RepositoryError.PARTITION_PARENT_NOT_ACTIVE, "step execution " + parent + " is "
                + facts.status() + ": a partition plan is created while its parent is STARTING or STARTED");
    }

    /** Names the rule that refused a restart. Runs only on the refusal path. */
    private RepositoryException restartRefusal(StepExecutionId source, StepExecutionId target) {
        StepFacts from = facts(source, "source step execution");
        if (!from.planned()) {
            return new RepositoryException(RepositoryError.PARTITION_PLAN_NOT_FOUND, "source step execution " + source
                    + " has no partition plan");
        }
        StepFacts to = facts(target, "target step execution");
        if (to.planned()) {
            return new RepositoryException(RepositoryError.PARTITION_PLAN_EXISTS, "target step execution " + target
                    + " already has a partition plan");
        }
        if (!to.acceptsPlan()) {
            return new RepositoryException(RepositoryError.PARTITION_PARENT_NOT_ACTIVE, "target step execution "
                    + target + " is " + to.status() + ": a partition plan is created while its parent is STARTING or STARTED");
        }
        if (to.jobInstanceId() != from.jobInstanceId()) {
            return new RepositoryException(RepositoryError.PARTITION_SOURCE_MISMATCH, "source step execution " + source
                    + " (job instance " + from.jobInstanceId() + ") and target step execution " + target
                    + " (job instance " + to.jobInstanceId() + ") are not steps of the same job instance");
        }
        if (!from.jobStatus().isRestartable()) {
            return new RepositoryException(RepositoryError.PARTITION_SOURCE_NOT_RESTARTABLE, "the job execution of "
                    + "source step execution " + source + " is " + from.jobStatus()
                    + ": a plan is restarted once its job is STOPPED or FAILED");
        }
        return new RepositoryException(RepositoryError.PARTITION_WORKER_ACTIVE, "the worker of partition "
                + from.busyOrdinal().map(String::valueOf).orElse("?") + " of source step execution " + source
                + " has not ended: stop or recover it before its plan is restarted");
    }

    private StepFacts facts(StepExecutionId id, String role) {
        return sql.queryOne(stepFacts, params -> params.bigint("id", id.value()), StepFacts::of)
                .orElseThrow(() -> new RepositoryException(RepositoryError.STEP_EXECUTION_NOT_FOUND, role + " " + id
                        + " does not exist"));
    }

    /** What the refusal paths need to know of a parent step. */
    private record StepFacts(ExecutionStatus status, long jobInstanceId, ExecutionStatus jobStatus, boolean planned,
            Optional<Long> busyOrdinal) {

        static StepFacts of(SqlRow row) {
            return new StepFacts(row.enumValue("status", ExecutionStatus.class), row.bigint("job_instance_id"),
                    row.enumValue("job_status", ExecutionStatus.class), row.bool("planned"),
                    row.optionalBigint("busy_ordinal"));
        }

        boolean acceptsPlan() {
            return status == ExecutionStatus.STARTING || status == ExecutionStatus.STARTED;
        }
    }
}
