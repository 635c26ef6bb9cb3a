package io.durablebatch.runtime.repository;

import static io.durablebatch.runtime.partition.PartitionRows.WORKER_ENDED;
import static io.durablebatch.runtime.partition.PartitionRows.WORKER_RESULT_STATUS;
import static io.durablebatch.runtime.partition.PartitionRows.resultOfWorker;
import static io.durablebatch.runtime.repository.ExecutionRows.JOB_EXECUTION_COLUMNS;
import static io.durablebatch.runtime.repository.ExecutionRows.UNRESOLVED_STATUSES;
import static io.durablebatch.runtime.repository.ExecutionRows.storedTime;

import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.ExecutionFailure;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.OperationId;
import io.durablebatch.execution.ReasonCode;
import io.durablebatch.repository.RecoveryDecision;
import io.durablebatch.repository.RecoveryRequest;
import io.durablebatch.repository.RecoveryResolution;
import io.durablebatch.repository.RecoveryResult;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.MetadataSql;
import io.durablebatch.runtime.sql.SqlParams;
import io.durablebatch.runtime.sql.SqlRow;
import io.durablebatch.runtime.sql.SqlStatement;

/**
 * Recovery of orphaned (active, owner gone) and ambiguous (UNKNOWN) executions, with its
 * append-only decision record. The execution row is locked first, so concurrent recoveries of one
 * execution are serialized and the later one sees the earlier one's decision.
 */
@ApplicationScoped
public class RecoveryStore {

    private static final String DECISION_COLUMNS = """
            job_execution_id, job_instance_id, operation_id, actor, reason, resolution, observed_status,
                observed_version, resulting_version, resolved_steps, decided_at""";

    /** What a recovery writes into the execution and each of its unresolved steps. */
    private static final String RESOLUTION = """
            status = :status, exit_code = :exitCode, exit_description = :exitDescription,
                failure_type = COALESCE(failure_type, :failureType),
                failure_message = COALESCE(failure_message, :failureMessage),
                ended_at = COALESCE(ended_at, :at), last_updated = :at, version = version + 1""";

    private final MetadataSql sql;
    private final JobExecutionStore jobExecutions;
    private final SqlStatement lockExecution;
    private final SqlStatement selectDecisions;
    private final SqlStatement selectDecision;
    private final SqlStatement resolveExecution;
    private final SqlStatement resolveSteps;
    private final SqlStatement resolvePartitions;
    private final SqlStatement insertDecision;

    RecoveryStore(MetadataSql sql, RepositoryTables tables, JobExecutionStore jobExecutions) {
        this.sql = sql;
        this.jobExecutions = jobExecutions;
        this.lockExecution = tables.statement("lockExecution", """
                SELECT status, version, COALESCE(lease_expires_at > statement_timestamp(), false) AS lease_live
                FROM {p}job_execution
                WHERE id = :id
                FOR UPDATE""");
        this.selectDecisions = tables.statement("selectDecisions", """
                SELECT {columns}
                FROM {p}recovery_decision
                WHERE job_execution_id = :jobExecutionId
                   OR operation_id = :operationId""", Map.of("columns", DECISION_COLUMNS));
        this.selectDecision = tables.statement("selectDecision", """
                SELECT {columns}
                FROM {p}recovery_decision
                WHERE job_execution_id = :jobExecutionId""", Map.of("columns", DECISION_COLUMNS));
        this.resolveExecution = tables.statement("resolveExecution", """
                UPDATE {p}job_execution
                SET {resolution}
                WHERE id = :id
                  AND version = :observedVersion
                  AND status IN {unresolved}
                RETURNING {columns}""",
                Map.of("resolution", RESOLUTION, "unresolved", UNRESOLVED_STATUSES, "columns", JOB_EXECUTION_COLUMNS));
        this.resolveSteps = tables.statement("resolveSteps", """
                UPDATE {p}step_execution
                SET {resolution}
                WHERE job_execution_id = :jobExecutionId
                  AND status IN {unresolved}""", Map.of("resolution", RESOLUTION, "unresolved", UNRESOLVED_STATUSES));
        // Partitions take the result of their ended workers, those just resolved included (an abandoned
        // worker counts as FAILED): no partition of a recovered execution stays STARTED.
        this.resolvePartitions = tables.statement("resolvePartitions", """
                UPDATE {p}step_partition p
                SET status = {workerResultStatus}, {resultOfWorker}, completed_at = w.ended_at,
                    last_updated = w.last_updated, version = p.version + 1
                FROM {p}step_execution w
                WHERE w.job_execution_id = :jobExecutionId
                  AND p.worker_step_execution_id = w.id
                  AND p.status = 'STARTED'
                  AND w.status IN {workerEnded}""", Map.of("workerResultStatus", WORKER_RESULT_STATUS,
                "resultOfWorker", resultOfWorker(), "workerEnded", WORKER_ENDED));
        this.insertDecision = tables.statement("insertDecision", """
                INSERT INTO {p}recovery_decision ({columns})
                VALUES (:jobExecutionId, :jobInstanceId, :operationId, :actor, :reason, :resolution, :observedStatus,
                        :observedVersion, :resultingVersion, :resolvedSteps, :decidedAt)""",
                Map.of("columns", DECISION_COLUMNS));
    }

    public RecoveryResult recover(JobExecutionId id, RecoveryRequest request) {
        Object[] locked = sql.queryOne(lockExecution, params -> params.bigint("id", id.value()),
                row -> new Object[] { row.enumValue("status", ExecutionStatus.class), row.bigint("version"),
                        row.bool("lease_live") })
                .orElseThrow(() -> new RepositoryException(RepositoryError.JOB_EXECUTION_NOT_FOUND,
                        "job execution " + id + " does not exist"));
        ExecutionStatus status = (ExecutionStatus) locked[0];
        ExecutionVersion version = new ExecutionVersion((Long) locked[1]);

        List<RecoveryDecision> recorded = sql.query(selectDecisions,
                params -> params.bigint("jobExecutionId", id.value()).text("operationId", request.operationId().value()),
                RecoveryStore::decision);
        Optional<RecoveryDecision> ofExecution = recorded.stream().filter(d -> d.jobExecutionId().equals(id)).findFirst();
        Optional<RecoveryDecision> ofOperation = recorded.stream()
                .filter(d -> d.operationId().equals(request.operationId())).findFirst();
        // Precedence: the same request is replayed; an operation id taken by any other request is a
        // conflict; otherwise a recorded decision means someone else already recovered it.
        if (ofExecution.isPresent() && request.isRecordedBy(ofExecution.get())) {
            return new RecoveryResult(ofExecution.get(), jobExecutions.get(id).orElseThrow(), true);
        }
        if (ofOperation.isPresent()) {
            throw new RepositoryException(RepositoryError.OPERATION_CONFLICT, "operation " + request.operationId()
                    + " already recorded a different recovery (of job execution " + ofOperation.get().jobExecutionId()
                    + ")");
        }
        if (ofExecution.isPresent()) {
            throw new RepositoryException(RepositoryError.ALREADY_RECOVERED, "job execution " + id
                    + " was already recovered to " + ofExecution.get().resolution() + " by operation "
                    + ofExecution.get().operationId());
        }
        if (!status.isUnresolved()) {
            throw new RepositoryException(RepositoryError.EXECUTION_NOT_RECOVERABLE, "job execution " + id + " is "
                    + status + ": only active or UNKNOWN executions are recovered");
        }
        if (!version.equals(request.observedVersion())) {
            throw new RepositoryException(RepositoryError.VERSION_CONFLICT, "job execution " + id + " is at version "
                    + version + ", not the observed " + request.observedVersion() + ": its owner may be alive");
        }
        if ((Boolean) locked[2] && !request.ownerDeclaredDead()) {
            throw new RepositoryException(RepositoryError.EXECUTION_LEASE_LIVE, "job execution " + id + " has a live "
                    + "lease: its owner showed a sign of life within the lease duration. Recover it once the lease "
                    + "has run out, or declare its owner dead");
        }
        return apply(id, request, status);
    }

    public Optional<RecoveryDecision> decision(JobExecutionId id) {
        return sql.queryOne(selectDecision, params -> params.bigint("jobExecutionId", id.value()),
                RecoveryStore::decision);
    }

    private RecoveryResult apply(JobExecutionId id, RecoveryRequest request, ExecutionStatus observedStatus) {
        Instant at = storedTime(request.requestedAt());
        RecoveryResolution resolution = request.resolution();
        ExitStatus exitStatus = new ExitStatus(resolution.name(), "recovered by " + request.actor() + ": "
                + request.reason());
        ExecutionFailure failure = new ExecutionFailure("io.durablebatch.Recovery", "recovered from " + observedStatus
                + ": " + request.reason());
        JobExecution resolved = sql.queryOne(resolveExecution, params -> bindResolution(params, resolution, exitStatus,
                failure, at).bigint("id", id.value()).bigint("observedVersion", request.observedVersion().value()),
                ExecutionRows::jobExecution)
                .orElseThrow(() -> new RepositoryException(RepositoryError.STORAGE_FAILURE,
                        "job execution " + id + " changed while it was locked for recovery"));
        int resolvedSteps = sql.update(resolveSteps, params -> bindResolution(params, resolution, exitStatus, failure, at)
                .bigint("jobExecutionId", id.value()));
        sql.update(resolvePartitions, params -> params.bigint("jobExecutionId", id.value()));
        RecoveryDecision decision = new RecoveryDecision(id, resolved.jobInstanceId(), request.operationId(),
                request.actor(), request.reason(), resolution, observedStatus, request.observedVersion(),
                resolved.version(), resolvedSteps, at);
        try {
            sql.update(insertDecision, params -> params.bigint("jobExecutionId", id.value())
                    .bigint("jobInstanceId", resolved.jobInstanceId().value())
                    .text("operationId", request.operationId().value())
                    .text("actor", request.actor().value())
                    .text("reason", request.reason().value())
                    .text("resolution", resolution.name())
                    .text("observedStatus", observedStatus.name())
                    .bigint("observedVersion", request.observedVersion().value())
                    .bigint("resultingVersion", resolved.version().value())
                    .integer("resolvedSteps", resolvedSteps)
                    .time("decidedAt", at));
        } catch (RepositoryException e) {
            if (MetadataSql.isUniqueViolation(e, "recovery_decision_operation_uq")) {
                // A concurrent recovery of another execution took this operation id; the transaction
                // is rolled back, so nothing of this one remains.
                throw new RepositoryException(RepositoryError.OPERATION_CONFLICT, "operation " + request.operationId()
                        + " was concurrently used for a different recovery", e);
            }
            throw e;
        }
        return new RecoveryResult(decision, resolved, false);
    }

    /** Binds {@link #RESOLUTION}: what a recovery writes into the execution and its steps. */
    private static SqlParams bindResolution(SqlParams params, RecoveryResolution resolution, ExitStatus exitStatus,
            ExecutionFailure failure, Instant at) throws SQLException {
        return params.text("status", resolution.status().name())
                .text("exitCode", exitStatus.code())
                .text("exitDescription", exitStatus.description())
                .text("failureType", failure.type())
                .text("failureMessage", failure.message())
                .time("at", at);
    }

    private static RecoveryDecision decision(SqlRow row) throws SQLException {
        return new RecoveryDecision(new JobExecutionId(row.bigint("job_execution_id")),
                new JobInstanceId(row.bigint("job_instance_id")), new OperationId(row.text("operation_id")),
                new ActorRef(row.text("actor")), new ReasonCode(row.text("reason")),
                row.enumValue("resolution", RecoveryResolution.class),
                row.enumValue("observed_status", ExecutionStatus.class),
                new ExecutionVersion(row.bigint("observed_version")), new ExecutionVersion(row.bigint("resulting_version")),
                row.integer("resolved_steps"), row.time("decided_at"));
    }
}
