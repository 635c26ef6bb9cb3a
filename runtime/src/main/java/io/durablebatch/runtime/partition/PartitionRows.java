package io.durablebatch.runtime.partition;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.repository.partition.PartitionPlanEntry;
import io.durablebatch.repository.partition.StepPartition;
import io.durablebatch.repository.partition.StepPartitionId;
import io.durablebatch.runtime.entity.StepPartitionEntity;
import io.durablebatch.runtime.repository.ExecutionRows;

/** Column lists, SQL fragments and the entity mapper of the partition table: one place that knows its shape. */
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

    static StepPartition partition(StepPartitionEntity row) {
        return new StepPartition(new StepPartitionId(row.id), new StepExecutionId(row.parentStepExecutionId),
                row.ordinal, PartitionPlanEntry.of(row.partitionKey, row.input), row.status,
                Optional.ofNullable(row.workerStepExecutionId).map(StepExecutionId::new),
                ExecutionRows.exitStatus(row), ExecutionRows.counters(row.counters),
                Optional.ofNullable(row.restartedFrom).map(StepPartitionId::new), row.createdAt,
                Optional.ofNullable(row.assignedAt), Optional.ofNullable(row.completedAt), row.lastUpdated,
                new ExecutionVersion(row.version),
                Optional.ofNullable(row.previousWorkerStepExecutionId).map(StepExecutionId::new), row.releaseCount);
    }

    /** The plan in unsigned key byte order, the order {@code ORDER BY partition_key} gives on bytea. */
    static List<StepPartition> inKeyOrder(List<StepPartition> partitions) {
        return partitions.stream().sorted((a, b) -> PartitionPlanEntry.KEY_ORDER.compare(a.entry(), b.entry()))
                .toList();
    }
}
