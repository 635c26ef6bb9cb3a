package io.durablebatch.runtime.repository;

import static io.durablebatch.runtime.partition.PartitionRows.WORKER_ENDED;
import static io.durablebatch.runtime.partition.PartitionRows.WORKER_RESULT_STATUS;
import static io.durablebatch.runtime.partition.PartitionRows.resultOfWorker;
import static io.durablebatch.runtime.repository.ExecutionRows.JOB_EXECUTION_COLUMNS;
import static io.durablebatch.runtime.repository.ExecutionRows.LEASE_LIVE;
import static io.durablebatch.runtime.repository.ExecutionRows.LOCK_INSTANCE_OF_EXECUTION;
import static io.durablebatch.runtime.repository.ExecutionRows.storedTime;

import java.time.Instant;
import java.util.Arrays;
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
import io.durablebatch.repository.Page;
import io.durablebatch.repository.PageRequest;
import io.durablebatch.repository.RecoveryDecision;
import io.durablebatch.repository.RecoveryRequest;
import io.durablebatch.repository.RecoveryResolution;
import io.durablebatch.repository.RecoveryResult;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.runtime.entity.JobExecutionEntity;
import io.durablebatch.runtime.entity.RecoveryDecisionEntity;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.EntityQuery;
import io.durablebatch.runtime.sql.MetadataSql;
import io.durablebatch.runtime.sql.SqlStatement;

/**
 * Recovery of orphaned (active, owner gone) and ambiguous (UNKNOWN) executions, with its
 * append-only decision record. The execution row is locked first, so concurrent recoveries of one
 * execution are serialized and the later one sees the earlier one's decision.
 * <p>
 * An operator's call, off the hot paths: the execution is resolved as an entity (one
 * version-checked {@code UPDATE}), its steps by one set-based {@code update versioned}, and the
 * decision inserted as an entity. Locking the row and judging its lease on the database clock, and
 * copying the workers' results into their partitions (an {@code UPDATE ... FROM}), stay native.
 */
@ApplicationScoped
public class RecoveryStore {

    private static final Keyset KEYSET = Keyset.newestFirst("recovery-decision");

    private static final List<ExecutionStatus> UNRESOLVED = Arrays.stream(ExecutionStatus.values())
            .filter(ExecutionStatus::isUnresolved).toList();

    private final MetadataSql sql;
    private final JobExecutionStore jobExecutions;
    private final SqlStatement lockExecution;
    private final EntityQuery<RecoveryDecisionEntity> selectDecisions;
    private final EntityQuery<RecoveryDecisionEntity> selectDecision;
    private final EntityQuery<Integer> resolveSteps;
    private final SqlStatement resolvePartitions;
    private final SqlStatement page;
    private final SqlStatement pageByInstance;

    /** The locked execution, and whether its lease still runs on the database clock. */
    private record Locked(JobExecutionEntity execution, boolean leaseLive) {
    }

    RecoveryStore(MetadataSql sql, RepositoryTables tables, JobExecutionStore jobExecutions) {
        this.sql = sql;
        this.jobExecutions = jobExecutions;
        // the instance first, as every decision on it (ExecutionRows.LOCK_INSTANCE_OF_EXECUTION)
        this.lockExecution = tables.statement("lockExecution", """
                {lockInstance}SELECT {columns}, {leaseLive}
                FROM {p}job_execution
                WHERE id = :id AND job_instance_id = (SELECT id FROM instance)
                FOR UPDATE""", Map.of("lockInstance", LOCK_INSTANCE_OF_EXECUTION, "columns", JOB_EXECUTION_COLUMNS,
                "leaseLive", LEASE_LIVE));
        this.selectDecisions = tables.query("selectDecisions", RecoveryDecisionEntity.class, """
                from DurableBatchRecoveryDecision d
                where d.jobExecutionId = :jobExecutionId or (d.operationId = :operationId and d.actor = :actor)""");
        this.selectDecision = tables.query("selectDecision", RecoveryDecisionEntity.class, """
                from DurableBatchRecoveryDecision d
                where d.jobExecutionId = :jobExecutionId""");
        // what a recovery writes into each unresolved step of the execution; the version increments
        this.resolveSteps = tables.mutation("resolveSteps", """
                update versioned DurableBatchStepExecution s
                set s.status = :status, s.exitCode = :exitCode, s.exitDescription = :exitDescription,
                    s.failureType = coalesce(s.failureType, :failureType),
                    s.failureMessage = coalesce(s.failureMessage, :failureMessage),
                    s.endedAt = coalesce(s.endedAt, :at), s.lastUpdated = :at
                where s.jobExecutionId = :jobExecutionId and s.status in :unresolved""");
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
        String decisions = """
                SELECT id, job_execution_id, job_instance_id, operation_id, actor, reason, resolution, observed_status,
                       observed_version, resulting_version, resolved_steps, decided_at
                FROM {p}recovery_decision
                """;
        this.page = tables.statement("page", decisions + """
                WHERE id < :after
                ORDER BY id DESC
                LIMIT :limit""");
        this.pageByInstance = tables.statement("pageByInstance", decisions + """
                WHERE job_instance_id = ANY (ARRAY[CAST(:jobInstanceId AS bigint)]) AND id < :after
                ORDER BY job_instance_id DESC, id DESC
                LIMIT :limit""");
    }

    public RecoveryResult recover(JobExecutionId id, RecoveryRequest request) {
        Locked locked = sql.queryOne(lockExecution, params -> params.bigint("id", id.value()),
                JobExecutionEntity.class, "lease_live", Boolean.class, Locked::new)
                .orElseThrow(() -> new RepositoryException(RepositoryError.JOB_EXECUTION_NOT_FOUND,
                        "job execution " + id + " does not exist"));
        ExecutionStatus status = locked.execution().status;
        ExecutionVersion version = new ExecutionVersion(locked.execution().version);

        List<RecoveryDecision> recorded = sql
                .list(selectDecisions, Map.of("jobExecutionId", id.value(), "operationId", request.operationId().value(),
                        "actor", request.actor().value()))
                .stream().map(RecoveryStore::decision).toList();
        Optional<RecoveryDecision> ofExecution = recorded.stream().filter(d -> d.jobExecutionId().equals(id)).findFirst();
        Optional<RecoveryDecision> ofOperation = recorded.stream()
                .filter(d -> d.operationId().equals(request.operationId()) && d.actor().equals(request.actor()))
                .findFirst();
        // Precedence: the same request is replayed; an operation id the actor took for any other
        // request is a conflict; otherwise a recorded decision means someone else already recovered
        // it (another actor's decision under the same operation id included: ids are per actor).
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
        if (locked.leaseLive() && !request.ownerDeclaredDead()) {
            throw new RepositoryException(RepositoryError.EXECUTION_LEASE_LIVE, "job execution " + id + " has a live "
                    + "lease: its owner showed a sign of life within the lease duration. Recover it once the lease "
                    + "has run out, or declare its owner dead");
        }
        return apply(locked.execution(), request);
    }

    /** The decisions newest first, of one instance or of all. */
    public Page<RecoveryDecision> page(Optional<JobInstanceId> instance, PageRequest request) {
        return KEYSET.page(sql.query(instance.isPresent() ? pageByInstance : page, params -> {
            instance.ifPresent(id -> params.bigint("jobInstanceId", id.value()));
            params.bigint("after", KEYSET.after(request)).integer("limit", KEYSET.limit(request));
        }, RecoveryDecisionEntity.class, row -> row), request, row -> row.id, RecoveryStore::decision);
    }

    public Optional<RecoveryDecision> decision(JobExecutionId id) {
        return sql.one(selectDecision, Map.of("jobExecutionId", id.value())).map(RecoveryStore::decision);
    }

    private RecoveryResult apply(JobExecutionEntity execution, RecoveryRequest request) {
        JobExecutionId id = new JobExecutionId(execution.id);
        ExecutionStatus observedStatus = execution.status;
        Instant at = storedTime(request.requestedAt());
        RecoveryResolution resolution = request.resolution();
        ExitStatus exitStatus = new ExitStatus(resolution.name(), "recovered by " + request.actor() + ": "
                + request.reason());
        ExecutionFailure failure = new ExecutionFailure("io.durablebatch.Recovery", "recovered from " + observedStatus
                + ": " + request.reason());
        execution.status = resolution.status();
        execution.exitCode = exitStatus.code();
        execution.exitDescription = exitStatus.description();
        execution.failureType = execution.failureType == null ? failure.type() : execution.failureType;
        execution.failureMessage = execution.failureMessage == null ? failure.message() : execution.failureMessage;
        execution.endedAt = execution.endedAt == null ? at : execution.endedAt;
        execution.lastUpdated = at;
        JobExecution resolved = ExecutionRows.jobExecution(sql.update(execution));
        int resolvedSteps = sql.mutate(resolveSteps, Map.of("status", resolution.status(),
                "exitCode", exitStatus.code(), "exitDescription", exitStatus.description(),
                "failureType", failure.type(), "failureMessage", failure.message(), "at", at,
                "jobExecutionId", id.value(), "unresolved", UNRESOLVED));
        sql.update(resolvePartitions, params -> params.bigint("jobExecutionId", id.value()));
        RecoveryDecisionEntity decision = new RecoveryDecisionEntity();
        decision.jobExecutionId = id.value();
        decision.jobInstanceId = resolved.jobInstanceId().value();
        decision.operationId = request.operationId().value();
        decision.actor = request.actor().value();
        decision.reason = request.reason().value();
        decision.resolution = resolution;
        decision.observedStatus = observedStatus;
        decision.observedVersion = request.observedVersion().value();
        decision.resultingVersion = resolved.version().value();
        decision.resolvedSteps = resolvedSteps;
        decision.decidedAt = at;
        try {
            sql.insert(decision);
        } catch (RepositoryException e) {
            if (MetadataSql.isUniqueViolation(e, "recovery_decision_operation_uq")) {
                // A concurrent recovery of another execution took this operation id; the transaction
                // is rolled back, so nothing of this one remains.
                throw new RepositoryException(RepositoryError.OPERATION_CONFLICT, "operation " + request.operationId()
                        + " was concurrently used for a different recovery", e);
            }
            throw e;
        }
        return new RecoveryResult(decision(decision), resolved, false);
    }

    private static RecoveryDecision decision(RecoveryDecisionEntity row) {
        return new RecoveryDecision(new JobExecutionId(row.jobExecutionId), new JobInstanceId(row.jobInstanceId),
                new OperationId(row.operationId), new ActorRef(row.actor), new ReasonCode(row.reason), row.resolution,
                row.observedStatus, new ExecutionVersion(row.observedVersion),
                new ExecutionVersion(row.resultingVersion), row.resolvedSteps, row.decidedAt);
    }
}
