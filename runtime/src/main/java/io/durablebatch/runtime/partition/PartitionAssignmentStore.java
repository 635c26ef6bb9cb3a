package io.durablebatch.runtime.partition;

import static io.durablebatch.runtime.partition.PartitionRows.COLUMNS;
import static io.durablebatch.runtime.partition.PartitionRows.WORKER_ELIGIBLE;
import static io.durablebatch.runtime.partition.PartitionRows.WORKER_ENDED;
import static io.durablebatch.runtime.partition.PartitionRows.WORKER_RESULT_STATUS;
import static io.durablebatch.runtime.partition.PartitionRows.qualified;
import static io.durablebatch.runtime.repository.ExecutionRows.storedTime;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.partition.StepPartition;
import io.durablebatch.repository.partition.StepPartitionId;
import io.durablebatch.runtime.entity.StepPartitionEntity;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.MetadataSql;
import io.durablebatch.runtime.sql.SqlRow;
import io.durablebatch.runtime.sql.SqlStatement;

/**
 * Partitions between their plan and their result: assigned to a worker step attempt (by id, or the
 * next one a worker claims), then completed from that worker's durable row. Each is one statement;
 * only a refusal reads again, to say why.
 */
@ApplicationScoped
public class PartitionAssignmentStore {

    /** The assignment of partition {@code p} to worker {@code w}, which assign and claim share. */
    private static final String ASSIGN = """
            UPDATE {p}step_partition p
            SET status = 'STARTED', worker_step_execution_id = w.id, assigned_at = :now, last_updated = :now,
                version = p.version + 1""";

    private final MetadataSql sql;
    private final SqlStatement assign;
    private final SqlStatement claim;
    private final SqlStatement complete;
    private final SqlStatement partitionFacts;
    private final SqlStatement workerFacts;

    PartitionAssignmentStore(MetadataSql sql, RepositoryTables tables) {
        this.sql = sql;
        String returning = qualified(COLUMNS, "p");
        this.assign = tables.statement("assign", """
                {assign}
                FROM {p}step_execution parent, {p}step_execution w
                WHERE p.id = :partitionId
                  AND p.version = :expectedVersion
                  AND p.status = 'STARTING'
                  AND {eligible}
                RETURNING {columns}""", Map.of("assign", ASSIGN, "eligible", WORKER_ELIGIBLE, "columns", returning));
        // The queue pattern: the first unassigned partition in entry order that no concurrent claimer
        // holds. SKIP LOCKED lets workers in many processes claim side by side without waiting on one
        // another; the partial index holds only unassigned partitions. The parent's row is share-locked
        // first (claimers share it): a parent that ends (an UPDATE of its row) waits for the claims in
        // flight and then sees them, and a claim behind its end reads its new status and claims
        // nothing, so no partition is ever claimed under a parent that has stopped handing out work.
        // Both locking reads are materialized: each runs once and yields at most one row.
        this.claim = tables.statement("claim", """
                WITH parent AS MATERIALIZED (SELECT id, status, job_execution_id
                                             FROM {p}step_execution
                                             WHERE id = :parentId
                                             FOR SHARE),
                next AS MATERIALIZED (SELECT id
                                      FROM {p}step_partition
                                      WHERE parent_step_execution_id = (SELECT id FROM parent)
                                        AND status = 'STARTING'
                                      ORDER BY ordinal
                                      LIMIT 1
                                      FOR UPDATE SKIP LOCKED)
                {assign}
                FROM parent, {p}step_execution w
                WHERE p.id = (SELECT id FROM next)
                  AND {eligible}
                RETURNING {columns}""", Map.of("assign", ASSIGN, "eligible", WORKER_ELIGIBLE, "columns", returning));
        // The result is read from the assigned worker's durable row, never from the caller; the
        // UPDATE locks the partition, so a partition is completed once.
        this.complete = tables.statement("complete", """
                UPDATE {p}step_partition p
                SET status = {resultStatus}, {result}, completed_at = :now, last_updated = :now,
                    version = p.version + 1
                FROM {p}step_execution w
                WHERE p.id = :partitionId
                  AND p.version = :expectedVersion
                  AND p.status = 'STARTED'
                  AND p.worker_step_execution_id = :workerId
                  AND w.id = p.worker_step_execution_id
                  AND w.status IN {workerEnded}
                RETURNING {columns}""", Map.of("resultStatus", WORKER_RESULT_STATUS, "result",
                PartitionRows.resultOfWorker(), "workerEnded", WORKER_ENDED, "columns", returning));
        this.partitionFacts = tables.statement("partitionFacts", """
                SELECT p.parent_step_execution_id, p.status, p.version, p.worker_step_execution_id,
                       w.status AS worker_status
                FROM {p}step_partition p
                LEFT JOIN {p}step_execution w ON w.id = p.worker_step_execution_id
                WHERE p.id = :partitionId""");
        this.workerFacts = tables.statement("workerFacts", """
                SELECT parent.status AS parent_status,
                       EXISTS (SELECT 1 FROM {p}step_partition_plan WHERE parent_step_execution_id = parent.id) AS planned,
                       w.status AS worker_status,
                       w.job_execution_id = parent.job_execution_id AS same_execution,
                       (SELECT h.ordinal FROM {p}step_partition h
                        WHERE h.parent_step_execution_id = parent.id
                          AND h.worker_step_execution_id = w.id) AS held_ordinal
                FROM (SELECT CAST(:parentId AS bigint) AS parent_id, CAST(:workerId AS bigint) AS worker_id) ids
                LEFT JOIN {p}step_execution parent ON parent.id = ids.parent_id
                LEFT JOIN {p}step_execution w ON w.id = ids.worker_id""");
    }

    public StepPartition assign(StepPartitionId id, ExecutionVersion expectedVersion, StepExecutionId worker) {
        Instant now = storedTime(Instant.now());
        return sql.queryOne(assign, params -> params.time("now", now).bigint("partitionId", id.value())
                .bigint("expectedVersion", expectedVersion.value()).bigint("workerId", worker.value()),
                StepPartitionEntity.class, PartitionRows::partition)
                .orElseThrow(() -> assignRefusal(id, expectedVersion, worker));
    }

    /**
     * The next unassigned partition of {@code parent}'s plan, assigned to {@code worker}; empty when no
     * unassigned partition is left (or the last ones are being claimed by concurrent transactions).
     */
    public Optional<StepPartition> claim(StepExecutionId parent, StepExecutionId worker) {
        Instant now = storedTime(Instant.now());
        Optional<StepPartition> claimed = sql.queryOne(claim, params -> params.bigint("parentId", parent.value())
                .time("now", now).bigint("workerId", worker.value()), StepPartitionEntity.class, PartitionRows::partition);
        if (claimed.isEmpty()) {
            WorkerFacts facts = workerFacts(parent, worker);
            if (facts.parentStatus().isPresent() && !facts.planned()) {
                throw new RepositoryException(RepositoryError.PARTITION_PLAN_NOT_FOUND, "step execution " + parent
                        + " has no partition plan");
            }
            workerRefusal(facts, parent, worker).ifPresent(refusal -> {
                throw refusal;
            });
        }
        return claimed;
    }

    public StepPartition complete(StepPartitionId id, ExecutionVersion expectedVersion, StepExecutionId worker) {
        Instant now = storedTime(Instant.now());
        return sql.queryOne(complete, params -> params.time("now", now).bigint("partitionId", id.value())
                .bigint("expectedVersion", expectedVersion.value()).bigint("workerId", worker.value()),
                StepPartitionEntity.class, PartitionRows::partition)
                .orElseThrow(() -> completeRefusal(id, expectedVersion, worker));
    }

    /** Names the rule that refused an assignment. Runs only on the refusal path. */
    private RepositoryException assignRefusal(StepPartitionId id, ExecutionVersion expectedVersion,
            StepExecutionId worker) {
        PartitionFacts partition = partitionFacts(id, expectedVersion);
        if (partition.status() != ExecutionStatus.STARTING) {
            return new RepositoryException(RepositoryError.PARTITION_NOT_ASSIGNABLE, "partition " + id + " is "
                    + partition.status() + partition.worker().map(w -> " (worker " + w + ")").orElse("")
                    + ": only unassigned partitions are assigned");
        }
        WorkerFacts facts = workerFacts(partition.parent(), worker);
        return workerRefusal(facts, partition.parent(), worker).orElseGet(() -> new RepositoryException(
                RepositoryError.VERSION_CONFLICT, "partition " + id + " changed concurrently"));
    }

    /** Names the rule that refused a completion. Runs only on the refusal path. */
    private RepositoryException completeRefusal(StepPartitionId id, ExecutionVersion expectedVersion,
            StepExecutionId worker) {
        PartitionFacts partition = partitionFacts(id, expectedVersion);
        if (partition.status() == ExecutionStatus.STARTING) {
            return new RepositoryException(RepositoryError.PARTITION_NOT_ASSIGNED, "partition " + id
                    + " has no worker: there is no result to complete it with");
        }
        if (partition.status() != ExecutionStatus.STARTED) {
            return new RepositoryException(RepositoryError.ILLEGAL_TRANSITION, "partition " + id + " is already "
                    + partition.status() + ": its result is final");
        }
        if (!partition.worker().equals(Optional.of(worker.value()))) {
            return new RepositoryException(RepositoryError.PARTITION_WORKER_MISMATCH, "partition " + id
                    + " is assigned to worker " + partition.worker().map(String::valueOf).orElse("?") + ", not " + worker);
        }
        return new RepositoryException(RepositoryError.PARTITION_WORKER_ACTIVE, "worker " + worker + " of partition "
                + id + " is " + partition.workerStatus().map(Enum::name).orElse("?")
                + ": a partition is completed from a worker that has ended");
    }

    private PartitionFacts partitionFacts(StepPartitionId id, ExecutionVersion expectedVersion) {
        PartitionFacts facts = sql.queryOne(partitionFacts, params -> params.bigint("partitionId", id.value()),
                PartitionFacts::of)
                .orElseThrow(() -> new RepositoryException(RepositoryError.PARTITION_NOT_FOUND, "partition " + id
                        + " does not exist"));
        if (facts.version() != expectedVersion.value()) {
            throw new RepositoryException(RepositoryError.VERSION_CONFLICT, "partition " + id + " is at version "
                    + facts.version() + ", not the expected " + expectedVersion);
        }
        return facts;
    }

    private WorkerFacts workerFacts(StepExecutionId parent, StepExecutionId worker) {
        return sql.queryOne(workerFacts, params -> params.bigint("parentId", parent.value())
                .bigint("workerId", worker.value()), WorkerFacts::of)
                .orElseThrow();
    }

    /** Why {@code worker} may not take a partition of {@code parent}'s plan, if it may not. */
    private static Optional<RepositoryException> workerRefusal(WorkerFacts facts, StepExecutionId parent,
            StepExecutionId worker) {
        if (facts.parentStatus().isEmpty()) {
            return Optional.of(new RepositoryException(RepositoryError.STEP_EXECUTION_NOT_FOUND, "parent step execution "
                    + parent + " does not exist"));
        }
        ExecutionStatus parentStatus = facts.parentStatus().get();
        if (parentStatus != ExecutionStatus.STARTING && parentStatus != ExecutionStatus.STARTED) {
            return Optional.of(new RepositoryException(RepositoryError.PARTITION_PARENT_NOT_ACTIVE, "parent step "
                    + "execution " + parent + " is " + parentStatus + ": it hands out partitions while STARTING or STARTED"));
        }
        if (facts.workerStatus().isEmpty()) {
            return Optional.of(new RepositoryException(RepositoryError.STEP_EXECUTION_NOT_FOUND, "worker step execution "
                    + worker + " does not exist"));
        }
        ExecutionStatus workerStatus = facts.workerStatus().get();
        String why = null;
        if (worker.equals(parent)) {
            why = "is the parent itself";
        } else if (!facts.sameExecution()) {
            why = "belongs to another job execution than its parent";
        } else if (workerStatus != ExecutionStatus.STARTING && workerStatus != ExecutionStatus.STARTED) {
            why = "is " + workerStatus + ", not STARTING or STARTED";
        } else if (facts.heldOrdinal().isPresent()) {
            why = "already runs partition " + facts.heldOrdinal().get() + " of this plan";
        }
        return why == null ? Optional.empty()
                : Optional.of(new RepositoryException(RepositoryError.PARTITION_WORKER_NOT_ELIGIBLE, "worker step "
                        + "execution " + worker + " " + why));
    }

    private record PartitionFacts(StepExecutionId parent, ExecutionStatus status, long version, Optional<Long> worker,
            Optional<ExecutionStatus> workerStatus) {

        static PartitionFacts of(SqlRow row) {
            return new PartitionFacts(new StepExecutionId(row.bigint("parent_step_execution_id")),
                    row.enumValue("status", ExecutionStatus.class), row.bigint("version"),
                    row.optionalBigint("worker_step_execution_id"),
                    row.optionalText("worker_status").map(ExecutionStatus::valueOf));
        }
    }

    private record WorkerFacts(Optional<ExecutionStatus> parentStatus, boolean planned,
            Optional<ExecutionStatus> workerStatus, boolean sameExecution, Optional<Long> heldOrdinal) {

        static WorkerFacts of(SqlRow row) {
            return new WorkerFacts(row.optionalText("parent_status").map(ExecutionStatus::valueOf), row.bool("planned"),
                    row.optionalText("worker_status").map(ExecutionStatus::valueOf), row.bool("same_execution"),
                    row.optionalBigint("held_ordinal"));
        }
    }
}
