package io.durablebatch.runtime.repository;

import static io.durablebatch.runtime.repository.ExecutionRows.JOB_EXECUTION_COLUMNS;
import static io.durablebatch.runtime.repository.ExecutionRows.storedTime;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.durablebatch.execution.DefinitionIdentity;
import io.durablebatch.execution.ExecutionParameters;
import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstance;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.control.OwnerToken;
import io.durablebatch.runtime.entity.JobExecutionEntity;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.EntityQuery;
import io.durablebatch.runtime.sql.MetadataSql;
import io.durablebatch.runtime.sql.SqlParams;
import io.durablebatch.runtime.sql.SqlStatement;

/**
 * Job executions: attempt creation under the restart rules, compare-and-swap transitions and
 * finders. Every lookup here is served by an index on (job_instance_id, attempt) or the key.
 */
@ApplicationScoped
public class JobExecutionStore {

    private final MetadataSql sql;
    private final JobInstanceStore instances;
    private final LifecycleUpdates<JobExecutionEntity, JobExecution> updates;
    private final SqlStatement create;
    private final SqlStatement launch;
    private final SqlStatement definitionCompatible;
    private final SqlStatement lockForDecision;
    private final EntityQuery<JobExecutionEntity> selectById;
    private final EntityQuery<JobExecutionEntity> selectLatest;
    private final EntityQuery<JobExecutionEntity> selectByInstance;

    JobExecutionStore(MetadataSql sql, RepositoryTables tables, JobInstanceStore instances) {
        this.sql = sql;
        this.instances = instances;
        this.updates = new LifecycleUpdates<>(sql, tables, "job_execution", JOB_EXECUTION_COLUMNS,
                JobExecutionEntity.class, ExecutionRows::jobExecution, false, "job execution",
                RepositoryError.JOB_EXECUTION_NOT_FOUND);
        // The definition of the latest attempt that recorded one is the checkpoint's definition; a
        // restart must use it, or a definition reachable from it by one registered edge.
        String compatible = """
                (NOT EXISTS (SELECT 1 FROM {p}job_execution
                             WHERE job_instance_id = i.id AND definition_revision IS NOT NULL)
                 OR EXISTS (SELECT 1
                            FROM (SELECT definition_revision, definition_fingerprint FROM {p}job_execution
                                  WHERE job_instance_id = i.id AND definition_revision IS NOT NULL
                                  ORDER BY attempt DESC LIMIT 1) c
                            LEFT JOIN {p}definition_upgrade u
                                   ON u.job_name = i.job_name AND u.from_revision = c.definition_revision
                                  AND u.from_fingerprint = c.definition_fingerprint
                                  AND u.to_revision = :revision AND u.to_fingerprint = :fingerprint
                            WHERE (c.definition_revision = :revision AND c.definition_fingerprint = :fingerprint)
                               OR u.job_name IS NOT NULL))""";
        // One statement: the restart rules, the definition rule and the insert. The partial unique
        // index (one unresolved attempt per instance) and the (instance, attempt) key make a racing
        // creator fall into ON CONFLICT DO NOTHING after the winner commits: exactly one wins.
        // The key-share lock (the one the foreign key check takes anyway) is taken up front, so an
        // attempt racing a purge of its instance waits for it and then finds no instance, instead of
        // failing the foreign key.
        String insert = """
                WITH latest AS (SELECT attempt, status FROM {p}job_execution
                                WHERE job_instance_id = :instanceId ORDER BY attempt DESC LIMIT 1)
                INSERT INTO {p}job_execution (job_instance_id, job_name, attempt, status, exit_code,
                        definition_revision, definition_fingerprint, parameters, created_at, last_updated{ownerColumns})
                SELECT i.id, i.job_name, COALESCE((SELECT attempt FROM latest), 0) + 1, {status}, 'EXECUTING',
                       CAST(:revision AS varchar), CAST(:fingerprint AS bytea), :parameters, :now, :now{ownerValues}
                FROM (SELECT id, job_name FROM {p}job_instance WHERE id = :instanceId FOR KEY SHARE) i
                WHERE COALESCE((SELECT status IN ('STOPPED', 'FAILED') FROM latest), true)
                  AND (NOT :bound OR (i.job_name = :jobName AND {compatible}))
                ON CONFLICT DO NOTHING
                RETURNING {columns}""";
        this.create = tables.statement("create", insert, Map.of("compatible", compatible, "columns",
                JOB_EXECUTION_COLUMNS, "status", "'STARTING'", "ownerColumns", "", "ownerValues", ""));
        // The kernel's launch: the same attempt, claimed by its owner (with a lease) and STARTED, as
        // a claim and a transition would leave it, in the same single statement.
        this.launch = tables.statement("launch", insert, Map.of("compatible", compatible, "columns",
                JOB_EXECUTION_COLUMNS, "status", "'STARTED'",
                "ownerColumns", ", owner_token, owner_claimed_at, lease_expires_at, started_at",
                "ownerValues", ", :owner, :now, {lease}, :now"));
        this.definitionCompatible = tables.statement("definitionCompatible", """
                SELECT {compatible} AS compatible FROM {p}job_instance i WHERE i.id = :instanceId""",
                Map.of("compatible", compatible));
        this.lockForDecision = tables.statement("lockForDecision", """
                {lockInstance}SELECT {columns}
                FROM {p}job_execution
                WHERE id = :id AND job_instance_id = (SELECT id FROM instance)
                FOR NO KEY UPDATE""", Map.of("lockInstance", ExecutionRows.LOCK_INSTANCE_OF_EXECUTION, "columns",
                JOB_EXECUTION_COLUMNS));
        this.selectById = tables.query("selectById", JobExecutionEntity.class, """
                from DurableBatchJobExecution e where e.id = :id""");
        this.selectLatest = tables.query("selectLatest", JobExecutionEntity.class, """
                from DurableBatchJobExecution e where e.jobInstanceId = :instanceId
                order by e.attempt desc limit 1""");
        this.selectByInstance = tables.query("selectByInstance", JobExecutionEntity.class, """
                from DurableBatchJobExecution e where e.jobInstanceId = :instanceId order by e.attempt""");
    }

    public JobExecution create(JobInstanceId instanceId, Optional<DefinitionIdentity> definition,
            ExecutionParameters parameters) {
        return insert(create, instanceId, definition, parameters, Optional.empty(), Instant.now());
    }

    /** A new attempt as {@link #create} makes it, already claimed by {@code owner} and STARTED. */
    public JobExecution launch(JobInstanceId instanceId, Optional<DefinitionIdentity> definition,
            ExecutionParameters parameters, OwnerToken owner, Instant launchedAt) {
        return insert(launch, instanceId, definition, parameters, Optional.of(owner), launchedAt);
    }

    private JobExecution insert(SqlStatement statement, JobInstanceId instanceId, Optional<DefinitionIdentity> definition,
            ExecutionParameters parameters, Optional<OwnerToken> owner, Instant at) {
        ParameterDomainCheck.require(parameters.values());
        Instant now = storedTime(at);
        Optional<JobExecution> created = sql.queryOne(statement, params -> {
            bindDefinition(params
                    .bigint("instanceId", instanceId.value())
                    .bytes("parameters", parameters.isEmpty() ? null : parameters.canonicalBytes())
                    .time("now", now)
                    .bool("bound", definition.isPresent())
                    .text("jobName", definition.map(d -> d.jobName().value()).orElse(null)), definition.orElse(null));
            owner.ifPresent(token -> params.text("owner", token.value()));
        }, JobExecutionEntity.class, ExecutionRows::jobExecution);
        return created.orElseThrow(() -> refusal(instanceId, definition));
    }

    public JobExecution transition(JobExecutionId id, ExecutionVersion expectedVersion, LifecycleTransition transition) {
        return updates.transition(id.value(), expectedVersion, transition);
    }

    public JobExecution enrichExitStatus(JobExecutionId id, ExecutionVersion expectedVersion, ExitStatus exitStatus) {
        return updates.enrichExitStatus(id.value(), expectedVersion, exitStatus, Instant.now());
    }

    public Optional<JobExecution> get(JobExecutionId id) {
        return sql.one(selectById, Map.of("id", id.value())).map(ExecutionRows::jobExecution);
    }

    /**
     * Locks the execution's instance, then the execution, to the end of the transaction, and returns
     * the execution as it is once both are held: an operator's decision on the instance.
     */
    public Optional<JobExecution> lockForDecision(JobExecutionId id) {
        return sql.queryOne(lockForDecision, params -> params.bigint("id", id.value()), JobExecutionEntity.class,
                ExecutionRows::jobExecution);
    }

    public Optional<JobExecution> latest(JobInstanceId instanceId) {
        return sql.one(selectLatest, Map.of("instanceId", instanceId.value())).map(ExecutionRows::jobExecution);
    }

    public List<JobExecution> ofInstance(JobInstanceId instanceId) {
        return sql.list(selectByInstance, Map.of("instanceId", instanceId.value())).stream()
                .map(ExecutionRows::jobExecution).toList();
    }

    /** Names the rule that refused an attempt. Runs only on the refusal path. */
    private RepositoryException refusal(JobInstanceId instanceId, Optional<DefinitionIdentity> definition) {
        JobInstance instance = instances.get(instanceId).orElse(null);
        if (instance == null) {
            return new RepositoryException(RepositoryError.JOB_INSTANCE_NOT_FOUND, "job instance " + instanceId
                    + " does not exist");
        }
        if (definition.isPresent() && !definition.get().jobName().equals(instance.jobName())) {
            return new RepositoryException(RepositoryError.DEFINITION_JOB_MISMATCH, "definition of job '"
                    + definition.get().jobName() + "' cannot run instance " + instanceId + " of job '"
                    + instance.jobName() + "'");
        }
        Optional<JobExecution> latest = latest(instanceId);
        if (latest.isPresent()) {
            JobExecution execution = latest.get();
            String subject = "job instance " + instanceId + ": its latest execution " + execution.id() + " (attempt "
                    + execution.attempt() + ")";
            switch (execution.status()) {
                case COMPLETED:
                    return new RepositoryException(RepositoryError.INSTANCE_COMPLETE, subject + " is COMPLETED");
                case ABANDONED:
                    return new RepositoryException(RepositoryError.INSTANCE_ABANDONED, subject + " is ABANDONED");
                case UNKNOWN:
                    return new RepositoryException(RepositoryError.EXECUTION_UNKNOWN, subject
                            + " is UNKNOWN: recover it first");
                case STARTING, STARTED, STOPPING:
                    return new RepositoryException(RepositoryError.EXECUTION_ACTIVE, subject + " is "
                            + execution.status());
                default:
                    break;
            }
        }
        if (definition.isPresent() && !compatible(instanceId, definition.get())) {
            return new RepositoryException(RepositoryError.DEFINITION_INCOMPATIBLE, "job instance " + instanceId
                    + " was checkpointed under another definition, and no registered upgrade leads from it to revision '"
                    + definition.get().revision() + "' (" + definition.get().fingerprint() + ")");
        }
        return new RepositoryException(RepositoryError.EXECUTION_ACTIVE, "job instance " + instanceId
                + " got a concurrent attempt");
    }

    private boolean compatible(JobInstanceId instanceId, DefinitionIdentity definition) {
        return sql.queryOne(definitionCompatible,
                params -> bindDefinition(params.bigint("instanceId", instanceId.value()), definition),
                row -> row.bool("compatible")).orElse(false);
    }

    private static void bindDefinition(SqlParams params, DefinitionIdentity definition) {
        params.text("revision", definition == null ? null : definition.revision())
                .bytes("fingerprint", definition == null ? null : definition.fingerprint().bytes());
    }
}
