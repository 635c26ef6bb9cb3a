package io.durablebatch.runtime.partition;

import static io.durablebatch.runtime.partition.PartitionRows.COUNTER_COLUMNS;
import static io.durablebatch.runtime.partition.PartitionRows.qualified;
import static io.durablebatch.runtime.repository.ExecutionRows.STEP_EXECUTION_COLUMNS;
import static io.durablebatch.runtime.repository.ExecutionRows.storedTime;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.runtime.entity.StepExecutionEntity;
import io.durablebatch.runtime.repository.ExecutionRows;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.MetadataSql;
import io.durablebatch.runtime.sql.SqlRow;
import io.durablebatch.runtime.sql.SqlStatement;

/**
 * Aggregation of a partitioned step: the parent's result derived from every partition's durable
 * result and applied to the parent by compare-and-swap in one statement.
 * <p>
 * The parent takes the status of its most severe partition ({@link #PRECEDENCE}), the exit status of
 * the first partition in key order with that status, and the sum of all counters. While any partition
 * is unassigned or running, nothing changes. The parent moves only as the lifecycle table allows, so
 * a STOPPED aggregate needs a STOPPING (or STARTING) parent.
 */
@ApplicationScoped
public class PartitionAggregationStore {

    /** Severity of partition results, most severe first. */
    static final List<ExecutionStatus> PRECEDENCE = List.of(ExecutionStatus.FAILED, ExecutionStatus.STOPPED,
            ExecutionStatus.COMPLETED);

    /** The failure type a parent records when a partition failed. */
    static final String PARTITION_FAILURE = "io.durablebatch.PartitionFailure";

    private final MetadataSql sql;
    private final SqlStatement aggregate;
    private final SqlStatement facts;

    PartitionAggregationStore(MetadataSql sql, RepositoryTables tables) {
        this.sql = sql;
        String sums = COUNTER_COLUMNS.stream().map(c -> "CAST(sum(" + c + ") AS bigint) AS " + c)
                .collect(Collectors.joining(", "));
        String counters = COUNTER_COLUMNS.stream().map(c -> c + " = c." + c).collect(Collectors.joining(", "));
        // The lifecycle table decides which parent statuses may take each aggregate status.
        String allowed = PRECEDENCE.stream().map(target -> "(w.status = '" + target.name() + "' AND s.status IN ("
                + target.allowedSources().stream().map(source -> "'" + source.name() + "'").sorted()
                        .collect(Collectors.joining(", "))
                + "))").collect(Collectors.joining(" OR "));
        this.aggregate = tables.statement("aggregate", """
                WITH c AS (SELECT count(*) AS total,
                                  count(*) FILTER (WHERE status IN ('STARTING', 'STARTED')) AS active,
                                  count(*) FILTER (WHERE status = 'FAILED') AS failed,
                                  {sums}
                           FROM {p}step_partition
                           WHERE parent_step_execution_id = :parentId),
                w AS ({worst})
                UPDATE {p}step_execution s
                SET status = w.status,
                    exit_code = COALESCE(CAST(:exitCode AS varchar), w.exit_code),
                    exit_description = CASE WHEN CAST(:exitCode AS varchar) IS NULL THEN w.exit_description
                                            ELSE CAST(:exitDescription AS text) END,
                    failure_type = CASE WHEN w.status = 'FAILED' THEN :failureType ELSE s.failure_type END,
                    failure_message = CASE WHEN w.status = 'FAILED'
                                           THEN c.failed || ' of ' || c.total
                                                || ' partitions FAILED, the first in key order is partition ' || w.ordinal
                                           ELSE s.failure_message END,
                    {counters},
                    ended_at = COALESCE(s.ended_at, :at), last_updated = :at, version = s.version + 1
                FROM c, w
                WHERE s.id = :parentId
                  AND s.version = :expectedVersion
                  AND c.total > 0
                  AND c.active = 0
                  AND ({allowed})
                RETURNING {columns}""",
                Map.of("sums", sums, "worst", mostSevere("status, exit_code, exit_description, ordinal"), "counters",
                        counters, "allowed", allowed, "columns", qualified(STEP_EXECUTION_COLUMNS, "s")));
        this.facts = tables.statement("facts", """
                SELECT s.status, s.version,
                       EXISTS (SELECT 1 FROM {p}step_partition_plan WHERE parent_step_execution_id = s.id) AS planned,
                       (SELECT count(*) FROM {p}step_partition
                        WHERE parent_step_execution_id = s.id
                          AND status IN ('STARTING', 'STARTED')) AS active,
                       ({aggregate}) AS aggregate
                FROM {p}step_execution s
                WHERE s.id = :parentId""", Map.of("aggregate", mostSevere("status")));
    }

    /**
     * The first partition of a plan (parent bound as {@code :parentId}) by {@link #PRECEDENCE}, ties
     * broken by key order.
     */
    private static String mostSevere(String columns) {
        String severity = "CASE status " + PRECEDENCE.stream()
                .map(s -> "WHEN '" + s.name() + "' THEN " + PRECEDENCE.indexOf(s)).collect(Collectors.joining(" "))
                + " ELSE " + PRECEDENCE.size() + " END";
        return """
                SELECT %s FROM {p}step_partition
                WHERE parent_step_execution_id = :parentId
                ORDER BY %s, partition_key
                LIMIT 1""".formatted(columns, severity);
    }

    /** Aggregates the plan into its parent; {@code exitStatus}, when given, replaces the most severe partition's. */
    public StepExecution aggregate(StepExecutionId parent, ExecutionVersion expectedVersion, Instant at,
            Optional<ExitStatus> exitStatus) {
        Instant time = storedTime(at);
        return sql.queryOne(aggregate, params -> params.bigint("parentId", parent.value())
                .text("exitCode", exitStatus.map(ExitStatus::code).orElse(null))
                .text("exitDescription", exitStatus.map(ExitStatus::description).orElse(null))
                .text("failureType", PARTITION_FAILURE).time("at", time)
                .bigint("expectedVersion", expectedVersion.value()), StepExecutionEntity.class, ExecutionRows::stepExecution)
                .orElseThrow(() -> refusal(parent, expectedVersion));
    }

    /** Names the rule that refused an aggregation. Runs only on the refusal path. */
    private RepositoryException refusal(StepExecutionId parent, ExecutionVersion expectedVersion) {
        Facts found = sql.queryOne(facts, params -> params.bigint("parentId", parent.value()), Facts::of)
                .orElseThrow(() -> new RepositoryException(RepositoryError.STEP_EXECUTION_NOT_FOUND, "step execution "
                        + parent + " does not exist"));
        if (found.version() != expectedVersion.value()) {
            return new RepositoryException(RepositoryError.VERSION_CONFLICT, "step execution " + parent
                    + " is at version " + found.version() + ", not the expected " + expectedVersion);
        }
        if (!found.planned()) {
            return new RepositoryException(RepositoryError.PARTITION_PLAN_NOT_FOUND, "step execution " + parent
                    + " has no partition plan");
        }
        if (found.active() > 0) {
            return new RepositoryException(RepositoryError.PARTITION_CHILD_ACTIVE, found.active() + " partitions of step "
                    + "execution " + parent + " are unassigned or running: it is aggregated once all have ended");
        }
        return new RepositoryException(RepositoryError.ILLEGAL_TRANSITION, "step execution " + parent + " cannot move "
                + "from " + found.status() + " to its aggregate " + found.aggregate().map(Enum::name).orElse("?"));
    }

    private record Facts(ExecutionStatus status, long version, boolean planned, long active,
            Optional<ExecutionStatus> aggregate) {

        static Facts of(SqlRow row) {
            return new Facts(row.enumValue("status", ExecutionStatus.class), row.bigint("version"), row.bool("planned"),
                    row.bigint("active"), row.optionalText("aggregate").map(ExecutionStatus::valueOf));
        }
    }
}
