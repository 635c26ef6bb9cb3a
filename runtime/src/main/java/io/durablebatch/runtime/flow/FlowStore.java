package io.durablebatch.runtime.flow;

import static io.durablebatch.runtime.repository.ExecutionRows.ACTIVE_STATUSES;
import static io.durablebatch.runtime.repository.ExecutionRows.STEP_EXECUTION_COLUMNS;
import static io.durablebatch.runtime.repository.ExecutionRows.storedTime;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepName;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.flow.FlowStepState;
import io.durablebatch.repository.flow.NodeId;
import io.durablebatch.repository.flow.StartLimit;
import io.durablebatch.runtime.entity.StepExecutionEntity;
import io.durablebatch.runtime.repository.ExecutionRows;
import io.durablebatch.runtime.repository.JobExecutionStore;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.EntityQuery;
import io.durablebatch.runtime.sql.MetadataSql;
import io.durablebatch.runtime.sql.SqlStatement;

/**
 * Flow step attempts: the per-node start limit counted across every execution of an instance, and
 * the latest attempt of a node. The node id, never the step name, identifies the node, so renaming a
 * step keeps its history.
 */
@ApplicationScoped
public class FlowStore {

    private final MetadataSql sql;
    private final JobExecutionStore jobExecutions;
    private final SqlStatement start;
    private final SqlStatement startRunning;
    private final SqlStatement latest;
    private final EntityQuery<Integer> startsConsumed;

    FlowStore(MetadataSql sql, RepositoryTables tables, JobExecutionStore jobExecutions) {
        this.sql = sql;
        this.jobExecutions = jobExecutions;
        // One statement: the active execution (held FOR SHARE, as createStepExecution does, so a
        // concurrent recovery resolves this step too), the start count and the step insert. The count
        // is an upsert: racing starters of one node queue on its row lock and each sees the count the
        // previous one committed, so no more than the limit ever start. At the limit nothing is
        // inserted and nothing is counted.
        String insert = """
                WITH e AS (SELECT id, job_instance_id FROM {p}job_execution
                           WHERE id = :jobExecutionId AND status IN {active} FOR SHARE),
                counted AS (INSERT INTO {p}flow_node AS n (job_instance_id, node_id, starts)
                            SELECT job_instance_id, :nodeId, 1 FROM e
                            ON CONFLICT (job_instance_id, node_id)
                            DO UPDATE SET starts = n.starts + 1 WHERE n.starts < :startLimit
                            RETURNING starts)
                INSERT INTO {p}step_execution (job_execution_id, job_instance_id, step_name, node_id, status,
                        exit_code, created_at, last_updated{startedColumns})
                SELECT e.id, e.job_instance_id, :stepName, :nodeId, {status}, 'EXECUTING', :now, :now{startedValues}
                FROM e, counted
                RETURNING {columns}""";
        this.start = tables.statement("start", insert, Map.of("active", ACTIVE_STATUSES, "columns",
                STEP_EXECUTION_COLUMNS, "status", "'STARTING'", "startedColumns", "", "startedValues", ""));
        // The same start, the attempt STARTED at once (with its lease and the checkpoint it resumes),
        // as the transition to STARTED would leave it: a step boundary of the kernel in one statement.
        this.startRunning = tables.statement("startRunning", insert, Map.of("active", ACTIVE_STATUSES, "columns",
                STEP_EXECUTION_COLUMNS, "status", "'STARTED'",
                "startedColumns", ", started_at, lease_expires_at, checkpoint",
                "startedValues", ", :now, {lease}, CAST(:checkpoint AS bytea)"));
        this.latest = tables.statement("latest", """
                SELECT n.starts, s.*
                FROM {p}flow_node n
                CROSS JOIN LATERAL (SELECT {columns} FROM {p}step_execution
                                    WHERE job_instance_id = n.job_instance_id AND node_id = n.node_id
                                    ORDER BY id DESC LIMIT 1) s
                WHERE n.job_instance_id = :jobInstanceId AND n.node_id = :nodeId""",
                Map.of("columns", STEP_EXECUTION_COLUMNS));
        this.startsConsumed = tables.query("startsConsumed", Integer.class, """
                select n.starts from DurableBatchFlowNode n
                where n.jobInstanceId = :jobInstanceId and n.nodeId = :nodeId""");
    }

    public StepExecution start(JobExecutionId jobExecutionId, StepName stepName, NodeId nodeId, StartLimit limit) {
        return insert(start, jobExecutionId, stepName, nodeId, limit, Optional.empty(), Instant.now());
    }

    /** Starts an attempt as {@link #start} does, STARTED at once and resuming {@code resumeFrom}. */
    public StepExecution startRunning(JobExecutionId jobExecutionId, StepName stepName, NodeId nodeId, StartLimit limit,
            Optional<Checkpoint> resumeFrom, Instant startedAt) {
        return insert(startRunning, jobExecutionId, stepName, nodeId, limit, resumeFrom, startedAt);
    }

    private StepExecution insert(SqlStatement statement, JobExecutionId jobExecutionId, StepName stepName, NodeId nodeId,
            StartLimit limit, Optional<Checkpoint> resumeFrom, Instant at) {
        Instant now = storedTime(at);
        return sql.queryOne(statement, params -> {
            params.bigint("jobExecutionId", jobExecutionId.value()).text("nodeId", nodeId.value())
                    .integer("startLimit", limit.value()).text("stepName", stepName.value()).time("now", now);
            if (statement == startRunning) {
                params.bytes("checkpoint", resumeFrom.map(Checkpoint::bytes).orElse(null));
            }
        }, StepExecutionEntity.class, ExecutionRows::stepExecution)
                .orElseThrow(() -> refusal(jobExecutionId, nodeId, limit));
    }

    public Optional<FlowStepState> latest(JobInstanceId jobInstanceId, NodeId nodeId) {
        return sql.queryOne(latest,
                params -> params.bigint("jobInstanceId", jobInstanceId.value()).text("nodeId", nodeId.value()),
                StepExecutionEntity.class, "starts", Integer.class,
                (step, starts) -> new FlowStepState(jobInstanceId, nodeId, ExecutionRows.stepExecution(step), starts));
    }

    /** Names the rule that refused a start. Runs only on the refusal path. */
    private RepositoryException refusal(JobExecutionId jobExecutionId, NodeId nodeId, StartLimit limit) {
        Optional<JobExecution> execution = jobExecutions.get(jobExecutionId);
        if (execution.isEmpty()) {
            return new RepositoryException(RepositoryError.JOB_EXECUTION_NOT_FOUND, "job execution " + jobExecutionId
                    + " does not exist");
        }
        if (!execution.get().status().isActive()) {
            return new RepositoryException(RepositoryError.EXECUTION_NOT_ACTIVE, "job execution " + jobExecutionId
                    + " is " + execution.get().status() + ": steps start only in an active job execution");
        }
        JobInstanceId instanceId = execution.get().jobInstanceId();
        int starts = sql.one(startsConsumed, Map.of("jobInstanceId", instanceId.value(), "nodeId", nodeId.value()))
                .orElse(0);
        return new RepositoryException(RepositoryError.START_LIMIT_EXCEEDED, "node " + nodeId + " of job instance "
                + instanceId + " already started " + starts + " times, its start limit is " + limit);
    }
}
