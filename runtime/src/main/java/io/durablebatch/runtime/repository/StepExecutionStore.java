package io.durablebatch.runtime.repository;

import static io.durablebatch.runtime.repository.ExecutionRows.ACTIVE_STATUSES;
import static io.durablebatch.runtime.repository.ExecutionRows.STEP_EXECUTION_COLUMNS;
import static io.durablebatch.runtime.repository.ExecutionRows.storedTime;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.execution.StepName;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.StepProgress;
import io.durablebatch.runtime.entity.StepExecutionEntity;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.EntityQuery;
import io.durablebatch.runtime.sql.MetadataSql;
import io.durablebatch.runtime.sql.SqlStatement;

/** Step executions: creation under an active job execution, compare-and-swap transitions, finders. */
@ApplicationScoped
public class StepExecutionStore {

    private final MetadataSql sql;
    private final JobExecutionStore jobExecutions;
    private final LifecycleUpdates<StepExecutionEntity, StepExecution> updates;
    private final SqlStatement create;
    private final EntityQuery<StepExecutionEntity> selectById;
    private final SqlStatement selectByJobExecutions;
    private final SqlStatement latestBefore;

    StepExecutionStore(MetadataSql sql, RepositoryTables tables, JobExecutionStore jobExecutions) {
        this.sql = sql;
        this.jobExecutions = jobExecutions;
        this.updates = new LifecycleUpdates<>(sql, tables, "step_execution", STEP_EXECUTION_COLUMNS,
                StepExecutionEntity.class, ExecutionRows::stepExecution, true, "step execution",
                RepositoryError.STEP_EXECUTION_NOT_FOUND);
        // FOR SHARE holds the job execution while the step is linked to it: a concurrent recovery
        // (which updates that row) waits, then sees and resolves this step too.
        this.create = tables.statement("create", """
                INSERT INTO {p}step_execution (job_execution_id, job_instance_id, step_name, status, exit_code,
                        created_at, last_updated)
                SELECT e.id, e.job_instance_id, :stepName, 'STARTING', 'EXECUTING', :now, :now
                FROM (SELECT id, job_instance_id FROM {p}job_execution
                      WHERE id = :jobExecutionId AND status IN {active} FOR SHARE) e
                RETURNING {columns}""", Map.of("active", ACTIVE_STATUSES, "columns", STEP_EXECUTION_COLUMNS));
        this.selectById = tables.query("selectById", StepExecutionEntity.class, """
                from DurableBatchStepExecution s where s.id = :id""");
        // The steps of one execution or of a listing's page of them, in one statement (plain JDBC, rows
        // mapped by hand). The index on (job_execution_id, id) serves both the filter, one range an
        // execution, and the order asked for: by execution, each one's steps in creation order.
        this.selectByJobExecutions = tables.statement("selectByJobExecutions", """
                SELECT {columns} FROM {p}step_execution
                WHERE job_execution_id = ANY (:jobExecutionIds)
                ORDER BY job_execution_id, id""", Map.of("columns", STEP_EXECUTION_COLUMNS));
        // The latest attempt of a step name in the instance's other executions: a backward walk of the
        // index on (job_instance_id, step_name, id) that stops at the first row not of the current
        // execution. Latest by id is latest by execution, then by attempt in it: an instance's
        // executions run one after the other (one unresolved at a time), and a step is only linked to
        // an active execution, which it holds (FOR SHARE) until it commits, so every attempt of an
        // earlier execution drew its id before the next execution existed.
        this.latestBefore = tables.statement("latestBefore", """
                SELECT {columns} FROM {p}step_execution
                WHERE job_instance_id = :jobInstanceId AND step_name = :stepName AND job_execution_id <> :current
                ORDER BY id DESC
                LIMIT 1""", Map.of("columns", STEP_EXECUTION_COLUMNS));
    }

    public StepExecution create(JobExecutionId jobExecutionId, StepName stepName) {
        Instant now = storedTime(Instant.now());
        return sql.queryOneByJdbc(create, params -> params.text("stepName", stepName.value()).time("now", now)
                .bigint("jobExecutionId", jobExecutionId.value()), ExecutionRows::stepExecution)
                .orElseThrow(() -> notActive(jobExecutionId));
    }

    public StepExecution transition(StepExecutionId id, ExecutionVersion expectedVersion, LifecycleTransition transition) {
        return updates.transition(id.value(), expectedVersion, transition);
    }

    public StepProgress recordProgress(StepExecutionId id, ExecutionVersion expectedVersion,
            Optional<Checkpoint> checkpoint, StepCounters counters, Instant at) {
        return updates.progressObservingStop(id, expectedVersion, checkpoint, counters, at);
    }

    public StepExecution enrichExitStatus(StepExecutionId id, ExecutionVersion expectedVersion, ExitStatus exitStatus) {
        return updates.enrichExitStatus(id.value(), expectedVersion, exitStatus, Instant.now());
    }

    public Optional<StepExecution> get(StepExecutionId id) {
        return sql.one(selectById, Map.of("id", id.value())).map(ExecutionRows::stepExecution);
    }

    public List<StepExecution> ofJobExecution(JobExecutionId jobExecutionId) {
        return List.copyOf(ofJobExecutions(new Long[] { jobExecutionId.value() }));
    }

    /** The steps of each execution given (none for one without), each execution's in creation order. */
    public Map<JobExecutionId, List<StepExecution>> ofJobExecutions(Collection<JobExecutionId> jobExecutionIds) {
        Map<JobExecutionId, List<StepExecution>> steps = new HashMap<>();
        jobExecutionIds.forEach(id -> steps.put(id, new ArrayList<>()));
        for (StepExecution step : ofJobExecutions(steps.keySet().stream().map(JobExecutionId::value).toArray(Long[]::new))) {
            steps.get(step.jobExecutionId()).add(step);
        }
        steps.replaceAll((id, ofOne) -> List.copyOf(ofOne));
        return Map.copyOf(steps);
    }

    private List<StepExecution> ofJobExecutions(Long[] jobExecutionIds) {
        return sql.queryByJdbc(selectByJobExecutions, params -> params.bigints("jobExecutionIds", jobExecutionIds),
                ExecutionRows::stepExecution);
    }

    public Optional<StepExecution> latestBefore(JobInstanceId jobInstanceId, StepName stepName, JobExecutionId current) {
        return sql.queryOneByJdbc(latestBefore, params -> params.bigint("jobInstanceId", jobInstanceId.value())
                .text("stepName", stepName.value()).bigint("current", current.value()), ExecutionRows::stepExecution);
    }

    private RepositoryException notActive(JobExecutionId jobExecutionId) {
        Optional<JobExecution> execution = jobExecutions.get(jobExecutionId);
        if (execution.isEmpty()) {
            return new RepositoryException(RepositoryError.JOB_EXECUTION_NOT_FOUND, "job execution " + jobExecutionId
                    + " does not exist");
        }
        return new RepositoryException(RepositoryError.EXECUTION_NOT_ACTIVE, "job execution " + jobExecutionId
                + " is " + execution.get().status() + ": steps start only in an active job execution");
    }
}
