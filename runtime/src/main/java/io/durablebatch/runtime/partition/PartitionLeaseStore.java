package io.durablebatch.runtime.partition;

import static io.durablebatch.runtime.partition.PartitionRows.WORKER_ENDED;
import static io.durablebatch.runtime.partition.PartitionRows.WORKER_RESULT_STATUS;
import static io.durablebatch.runtime.repository.ExecutionRows.ACTIVE_STATUSES;
import static io.durablebatch.runtime.repository.ExecutionRows.storedTime;

import java.time.Instant;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.repository.partition.StepPartitionId;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.MetadataSql;
import io.durablebatch.runtime.sql.SqlStatement;

/**
 * The parent of a partitioned step watches its plan through the leases of the partitions' workers,
 * in one statement per poll ({@link #poll}): a partition whose worker lost its lease (its process
 * died, wherever it ran) is released to the next worker, which resumes the dead worker's checkpoint;
 * and the plan is counted by status, so the parent knows whether to hand out work, wait or aggregate.
 * <p>
 * Liveness is judged on the database clock only ({@code lease_expires_at < statement_timestamp()}),
 * so the clocks of the processes never matter. Kernel-internal: not part of the repository API.
 */
@ApplicationScoped
public class PartitionLeaseStore {

    /** The failure type of a worker step whose lease ran out while it ran a partition. */
    public static final String OWNER_LOST = "io.durablebatch.OwnerLost";

    /** The reason a partition release is audited with. */
    public static final String RELEASE_REASON = "OWNER_LOST";

    /** The reason a partition handed back by a worker whose process shuts down is audited with. */
    public static final String HAND_BACK_REASON = "WORKER_SHUTDOWN";

    private final MetadataSql sql;
    private final SqlStatement poll;
    private final SqlStatement handBack;

    PartitionLeaseStore(MetadataSql sql, RepositoryTables tables) {
        this.sql = sql;
        // Parameters: :parentId, the parent step execution, and :at, the time recorded as the end of lost
        // workers, the completion of settled partitions and the release. The CTEs, in order:
        //
        // - lost: partitions whose worker is still active but let its lease run out: its process is gone
        // (a live worker renews its lease at every chunk commit and in the background). A worker
        // without a lease (never started) is not judged.
        // - fenced: the lost worker ends FAILED; should its process come back after all, its next chunk
        // commit (or its completion of the partition) is refused, so nothing is written twice.
        // - released: the partition is unassigned work again, naming the lost worker, whose checkpoint
        // the next worker resumes; audited: one partition_release row each.
        // - orphaned, settled: partitions whose worker ended but never completed them (its process died
        // in between) take the worker's durable result once its lease has run out too; while the lease
        // lasts, the worker may still be completing the partition itself.
        //
        // Races are settled by row locks, not by isolation: each CTE that changes rows locks them first
        // with SKIP LOCKED, so two concurrent callers (or a worker committing a chunk right now) never
        // wait on each other, and a row changed since this statement began is re-checked against its
        // committed version when it is locked (READ COMMITTED's recheck), so a partition released or
        // completed meanwhile is left alone: nothing is ever released twice. The locking reads are
        // materialized, so each runs once.
        //
        // All CTEs and the final SELECT see the snapshot taken when the statement began, before any of
        // its own changes: the counts overlay the new status of every row this statement changed
        // (changed) on the plan as it was. Plans are bounded (partitions.max-plan-size) and read through
        // the (parent, ordinal) unique index; the plan itself never leaves the database. The SQL carries
        // no comments, so that it stays valid when logged on one line.
        this.poll = tables.statement("poll", """
                WITH args AS (
                    SELECT CAST(:parentId AS bigint) AS parent, CAST(:at AS timestamptz) AS at
                ),
                lost AS MATERIALIZED (
                    SELECT p.id, w.id AS worker
                    FROM {p}step_partition p
                    JOIN args ON p.parent_step_execution_id = args.parent
                    JOIN {p}step_execution w ON w.id = p.worker_step_execution_id
                    WHERE p.status = 'STARTED'
                      AND w.status IN {activeStatuses}
                      AND w.lease_expires_at < statement_timestamp()
                    FOR UPDATE OF p, w SKIP LOCKED
                ),
                fenced AS (
                    UPDATE {p}step_execution w
                    SET status = 'FAILED', exit_code = 'FAILED', exit_description = '',
                        failure_type = '{ownerLost}',
                        failure_message = 'worker step execution ' || w.id || ' lost its lease, which ran out at '
                            || w.lease_expires_at || ' (database clock): its process is presumed gone and its '
                            || 'partition was released to another worker',
                        ended_at = COALESCE(w.ended_at, args.at), last_updated = args.at, version = w.version + 1
                    FROM lost, args
                    WHERE w.id = lost.worker
                ),
                released AS (
                    UPDATE {p}step_partition p
                    SET status = 'STARTING', worker_step_execution_id = NULL, assigned_at = NULL,
                        previous_worker_step_execution_id = lost.worker, release_count = p.release_count + 1,
                        last_updated = args.at, version = p.version + 1
                    FROM lost, args
                    WHERE p.id = lost.id
                    RETURNING p.id, p.status, p.parent_step_execution_id, lost.worker
                ),
                audited AS (
                    INSERT INTO {p}partition_release
                        (step_partition_id, parent_step_execution_id, worker_step_execution_id, reason, released_at)
                    SELECT released.id, released.parent_step_execution_id, released.worker, '{releaseReason}', args.at
                    FROM released, args
                ),
                orphaned AS MATERIALIZED (
                    SELECT p.id
                    FROM {p}step_partition p
                    JOIN args ON p.parent_step_execution_id = args.parent
                    JOIN {p}step_execution w ON w.id = p.worker_step_execution_id
                    WHERE p.status = 'STARTED'
                      AND w.status IN {workerEnded}
                      AND w.lease_expires_at < statement_timestamp()
                    FOR UPDATE OF p SKIP LOCKED
                ),
                settled AS (
                    UPDATE {p}step_partition p
                    SET status = {resultStatus}, {result},
                        completed_at = args.at, last_updated = args.at, version = p.version + 1
                    FROM orphaned, {p}step_execution w, args
                    WHERE p.id = orphaned.id
                      AND w.id = p.worker_step_execution_id
                    RETURNING p.id, p.status
                ),
                changed AS (
                    SELECT id, status FROM released
                    UNION ALL
                    SELECT id, status FROM settled
                )
                SELECT count(*) FILTER (WHERE plan.status = 'STARTING')  AS unassigned,
                       count(*) FILTER (WHERE plan.status = 'STARTED')   AS running,
                       count(*) FILTER (WHERE plan.status = 'COMPLETED') AS completed,
                       count(*) FILTER (WHERE plan.status = 'FAILED')    AS failed,
                       count(*) FILTER (WHERE plan.status = 'STOPPED')   AS stopped,
                       (SELECT count(*) FROM released)                  AS released
                FROM (
                    SELECT COALESCE(changed.status, p.status) AS status
                    FROM {p}step_partition p
                    JOIN args ON p.parent_step_execution_id = args.parent
                    LEFT JOIN changed ON changed.id = p.id
                ) plan""",
                Map.of("activeStatuses", ACTIVE_STATUSES, "ownerLost", OWNER_LOST, "releaseReason", RELEASE_REASON,
                        "workerEnded", WORKER_ENDED, "resultStatus", WORKER_RESULT_STATUS, "result",
                        PartitionRows.resultOfWorker()));
        this.handBack = tables.statement("handBack", """
                WITH handed AS (
                    UPDATE {p}step_partition p
                    SET status = 'STARTING', worker_step_execution_id = NULL, assigned_at = NULL,
                        previous_worker_step_execution_id = p.worker_step_execution_id,
                        release_count = p.release_count + 1, last_updated = :at, version = p.version + 1
                    FROM {p}step_execution w
                    WHERE p.id = :partitionId
                      AND p.status = 'STARTED'
                      AND p.worker_step_execution_id = :workerId
                      AND w.id = p.worker_step_execution_id
                      AND w.status = 'STOPPED'
                    RETURNING p.id, p.parent_step_execution_id, w.id AS worker
                )
                INSERT INTO {p}partition_release
                    (step_partition_id, parent_step_execution_id, worker_step_execution_id, reason, released_at)
                SELECT id, parent_step_execution_id, worker, '{reason}', :at
                FROM handed
                RETURNING step_partition_id""", Map.of("reason", HAND_BACK_REASON));
    }

    /**
     * Hands a partition back to the plan: its worker stopped because its process shuts down, not
     * because the job was asked to stop, so the partition is unassigned work again (naming the worker,
     * whose checkpoint the next worker resumes) instead of a STOPPED result that would stop the job of
     * the node this worker helped. One statement, audited; false if the partition is no longer this
     * worker's or the worker did not end STOPPED.
     */
    public boolean handBack(StepPartitionId partition, StepExecutionId worker, Instant at) {
        Instant time = storedTime(at);
        return sql.queryOne(handBack, params -> params.time("at", time).bigint("partitionId", partition.value())
                .bigint("workerId", worker.value()), row -> row.bigint("step_partition_id")).isPresent();
    }

    /**
     * Releases the partitions of {@code parent}'s plan whose worker lost its lease, settles those whose
     * worker ended without completing them, and counts the plan by status. One statement; joins the
     * caller's transaction, which should commit at once (it holds the rows it released).
     */
    public PlanSummary poll(StepExecutionId parent, Instant at) {
        Instant time = storedTime(at);
        return sql.queryOne(poll, params -> params.bigint("parentId", parent.value()).time("at", time),
                row -> new PlanSummary(row.bigint("unassigned"), row.bigint("running"), row.bigint("completed"),
                        row.bigint("failed"),
                        row.bigint("stopped"), row.bigint("released")))
                .orElseThrow();
    }
}
