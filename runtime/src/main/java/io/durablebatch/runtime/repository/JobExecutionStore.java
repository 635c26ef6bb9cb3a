package io.durablebatch.runtime.repository;

import static io.durablebatch.runtime.repository.ExecutionRows.JOB_EXECUTION_COLUMNS;
import static io.durablebatch.runtime.repository.ExecutionRows.storedTime;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.durablebatch.repository.DefinitionIdentity;
import io.durablebatch.repository.ExecutionParameters;
import io.durablebatch.repository.ExecutionVersion;
import io.durablebatch.repository.ExitStatus;
import io.durablebatch.repository.JobExecution;
import io.durablebatch.repository.JobExecutionId;
import io.durablebatch.repository.JobInstance;
import io.durablebatch.repository.JobInstanceId;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.MetadataSql;

/**
 * Job executions: attempt creation under the restart rules, compare-and-swap transitions and
 * finders. Every lookup here is served by an index on (job_instance_id, attempt) or the key.
 */
@ApplicationScoped
public class JobExecutionStore {

    private final MetadataSql sql;
    private final JobInstanceStore instances;
    private final LifecycleUpdates<JobExecution> updates;
    private final String create;
    private final String definitionCompatible;
    private final String selectById;
    private final String selectLatest;
    private final String selectByInstance;

    JobExecutionStore(MetadataSql sql, RepositoryTables tables, JobInstanceStore instances) {
        this.sql = sql;
        this.instances = instances;
        this.updates = new LifecycleUpdates<>(sql, tables, "job_execution", JOB_EXECUTION_COLUMNS,
                ExecutionRows::jobExecution, false, "job execution", RepositoryError.JOB_EXECUTION_NOT_FOUND);
        String checkpointed = "SELECT definition_revision, definition_fingerprint FROM {p}job_execution "
                + "WHERE job_instance_id = i.id AND definition_revision IS NOT NULL ORDER BY attempt DESC LIMIT 1";
        // The definition of the latest attempt that recorded one is the checkpoint's definition; a
        // restart must use it, or a definition reachable from it by one registered edge.
        String compatible = "(NOT EXISTS (" + checkpointed + ")"
                + " OR EXISTS (SELECT 1 FROM (" + checkpointed + ") c WHERE c.definition_revision = ? "
                + "    AND c.definition_fingerprint = ?)"
                + " OR EXISTS (SELECT 1 FROM (" + checkpointed + ") c JOIN {p}definition_upgrade u"
                + "    ON u.job_name = i.job_name AND u.from_revision = c.definition_revision"
                + "    AND u.from_fingerprint = c.definition_fingerprint"
                + "    WHERE u.to_revision = ? AND u.to_fingerprint = ?))";
        // One statement: the restart rules, the definition rule and the insert. The partial unique
        // index (one unresolved attempt per instance) and the (instance, attempt) key make a racing
        // creator fall into ON CONFLICT DO NOTHING after the winner commits: exactly one wins.
        // The key-share lock (the one the foreign key check takes anyway) is taken up front, so an
        // attempt racing a purge of its instance waits for it and then finds no instance, instead of
        // failing the foreign key.
        this.create = tables.sql("WITH latest AS (SELECT attempt, status FROM {p}job_execution "
                + "WHERE job_instance_id = ? ORDER BY attempt DESC LIMIT 1) "
                + "INSERT INTO {p}job_execution (job_instance_id, job_name, attempt, status, exit_code, "
                + "definition_revision, definition_fingerprint, parameters, created_at, last_updated) "
                + "SELECT i.id, i.job_name, COALESCE((SELECT attempt FROM latest), 0) + 1, 'STARTING', 'EXECUTING', "
                + "?, ?, ?, ?, ? FROM (SELECT id, job_name FROM {p}job_instance WHERE id = ? FOR KEY SHARE) i "
                + "WHERE COALESCE((SELECT status IN ('STOPPED', 'FAILED') FROM latest), true) "
                + "AND (NOT ? OR (i.job_name = ? AND " + compatible + ")) "
                + "ON CONFLICT DO NOTHING RETURNING " + JOB_EXECUTION_COLUMNS);
        this.definitionCompatible = tables.sql("SELECT " + compatible + " AS compatible FROM {p}job_instance i "
                + "WHERE i.id = ?");
        this.selectById = tables.sql("SELECT " + JOB_EXECUTION_COLUMNS + " FROM {p}job_execution WHERE id = ?");
        this.selectLatest = tables.sql("SELECT " + JOB_EXECUTION_COLUMNS + " FROM {p}job_execution "
                + "WHERE job_instance_id = ? ORDER BY attempt DESC LIMIT 1");
        this.selectByInstance = tables.sql("SELECT " + JOB_EXECUTION_COLUMNS + " FROM {p}job_execution "
                + "WHERE job_instance_id = ? ORDER BY attempt");
    }

    public JobExecution create(JobInstanceId instanceId, Optional<DefinitionIdentity> definition,
            ExecutionParameters parameters) {
        Instant now = storedTime(Instant.now());
        Optional<JobExecution> created = sql.queryOne(create, params -> {
            params.bigint(instanceId.value())
                    .text(definition.map(DefinitionIdentity::revision).orElse(null))
                    .bytes(definition.map(d -> d.fingerprint().bytes()).orElse(null))
                    .bytes(parameters.isEmpty() ? null : parameters.canonicalBytes())
                    .time(now).time(now)
                    .bigint(instanceId.value())
                    .bool(definition.isPresent())
                    .text(definition.map(d -> d.jobName().value()).orElse(null));
            bindDefinitionTwice(params, definition.orElse(null));
        }, ExecutionRows::jobExecution);
        return created.orElseThrow(() -> refusal(instanceId, definition));
    }

    public JobExecution transition(JobExecutionId id, ExecutionVersion expectedVersion, LifecycleTransition transition) {
        return updates.transition(id.value(), expectedVersion, transition);
    }

    public JobExecution enrichExitStatus(JobExecutionId id, ExecutionVersion expectedVersion, ExitStatus exitStatus) {
        return updates.enrichExitStatus(id.value(), expectedVersion, exitStatus, Instant.now());
    }

    public Optional<JobExecution> get(JobExecutionId id) {
        return sql.queryOne(selectById, params -> params.bigint(id.value()), ExecutionRows::jobExecution);
    }

    public Optional<JobExecution> latest(JobInstanceId instanceId) {
        return sql.queryOne(selectLatest, params -> params.bigint(instanceId.value()), ExecutionRows::jobExecution);
    }

    public List<JobExecution> ofInstance(JobInstanceId instanceId) {
        return sql.query(selectByInstance, params -> params.bigint(instanceId.value()), ExecutionRows::jobExecution);
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
            String subject = "job instance " + instanceId + " (latest attempt " + execution.id() + ")";
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
        return sql.queryOne(definitionCompatible, params -> {
            bindDefinitionTwice(params, definition);
            params.bigint(instanceId.value());
        }, row -> row.bool("compatible")).orElse(false);
    }

    private static void bindDefinitionTwice(io.durablebatch.runtime.sql.SqlParams params, DefinitionIdentity definition)
            throws java.sql.SQLException {
        String revision = definition == null ? null : definition.revision();
        byte[] fingerprint = definition == null ? null : definition.fingerprint().bytes();
        params.text(revision).bytes(fingerprint).text(revision).bytes(fingerprint);
    }
}
