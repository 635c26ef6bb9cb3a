package io.durablebatch.runtime.partition;

import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.partition.PartitionPlanEntry;
import io.durablebatch.partition.StepPartition;
import io.durablebatch.partition.StepPartitionId;
import io.durablebatch.runtime.repository.ExecutionRows;
import io.durablebatch.runtime.sql.SqlRow;

/** Column lists, SQL fragments and the row mapper of the partition table: one place that knows its shape. */
public final class PartitionRows {

    /** The counters a partition copies from its worker and a parent sums over its partitions. */
    static final List<String> COUNTER_COLUMNS = List.of("read_count", "write_count", "filter_count",
            "read_skip_count", "process_skip_count", "write_skip_count", "commit_count", "rollback_count");

    static final String COLUMNS = "id, parent_step_execution_id, ordinal, partition_key, input, status, "
            + "worker_step_execution_id, exit_code, exit_description, " + String.join(", ", COUNTER_COLUMNS)
            + ", restarted_from, created_at, assigned_at, completed_at, last_updated, version"
            + ", previous_worker_step_execution_id, release_count";

    /** Worker statuses that carry a result: the worker ended (an operator may have abandoned it since). */
    public static final String WORKER_ENDED = "('STOPPED', 'FAILED', 'COMPLETED', 'ABANDONED')";

    /** The status a partition takes from its ended worker {@code w}: an abandoned worker did not finish. */
    public static final String WORKER_RESULT_STATUS = "CASE w.status WHEN 'ABANDONED' THEN 'FAILED' ELSE w.status END";

    /**
     * Whether worker {@code w} (bound as {@code :workerId}) may take partition {@code p} of parent step
     * {@code parent}: the parent hands out work, and the worker is a starting step attempt of the
     * same job execution that runs no other partition of this plan.
     */
    static final String WORKER_ELIGIBLE = """
            parent.id = p.parent_step_execution_id
              AND parent.status IN ('STARTING', 'STARTED')
              AND w.id = :workerId
              AND w.status IN ('STARTING', 'STARTED')
              AND w.job_execution_id = parent.job_execution_id
              AND w.id <> parent.id
              AND NOT EXISTS (SELECT 1 FROM {p}step_partition h
                              WHERE h.parent_step_execution_id = p.parent_step_execution_id
                                AND h.worker_step_execution_id = w.id)""";

    private PartitionRows() {
    }

    /** {@code columns} qualified by a table alias, for statements that join several tables. */
    static String qualified(String columns, String alias) {
        return Arrays.stream(columns.split(",\\s*")).map(column -> alias + "." + column)
                .collect(Collectors.joining(", "));
    }

    /** {@code SET} assignments that copy the exit status and counters of worker {@code w}. */
    public static String resultOfWorker() {
        return "exit_code = w.exit_code, exit_description = w.exit_description, " + COUNTER_COLUMNS.stream()
                .map(column -> column + " = w." + column).collect(Collectors.joining(", "));
    }

    static StepPartition partition(SqlRow row) throws SQLException {
        return new StepPartition(new StepPartitionId(row.bigint("id")),
                new StepExecutionId(row.bigint("parent_step_execution_id")), row.integer("ordinal"),
                PartitionPlanEntry.of(row.bytes("partition_key"), row.bytes("input")),
                row.enumValue("status", ExecutionStatus.class),
                row.optionalBigint("worker_step_execution_id").map(StepExecutionId::new), ExecutionRows.exitStatus(row),
                ExecutionRows.counters(row), row.optionalBigint("restarted_from").map(StepPartitionId::new),
                row.time("created_at"), row.optionalTime("assigned_at"), row.optionalTime("completed_at"),
                row.time("last_updated"), new ExecutionVersion(row.bigint("version")),
                row.optionalBigint("previous_worker_step_execution_id").map(StepExecutionId::new),
                row.integer("release_count"));
    }

    /** The plan in unsigned key byte order, the order {@code ORDER BY partition_key} gives on bytea. */
    static List<StepPartition> inKeyOrder(List<StepPartition> partitions) {
        return partitions.stream().sorted((a, b) -> PartitionPlanEntry.KEY_ORDER.compare(a.entry(), b.entry()))
                .toList();
    }
}
