package io.durablebatch.runtime.flow;

import static io.durablebatch.runtime.repository.ExecutionRows.ACTIVE_STATUSES;
import static io.durablebatch.runtime.repository.ExecutionRows.storedTime;

import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.PlanFingerprint;
import io.durablebatch.flow.FlowDecision;
import io.durablebatch.flow.FlowDecisionRequest;
import io.durablebatch.flow.FlowTransitionKind;
import io.durablebatch.flow.InputDigest;
import io.durablebatch.flow.NodeId;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.runtime.repository.JobExecutionStore;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.MetadataSql;
import io.durablebatch.runtime.sql.SqlRow;

/**
 * The append-only route decisions of flows. Each execution numbers its decisions from one without
 * gaps; a restart finds a prior decision with exactly the same durable input and replays it.
 */
@ApplicationScoped
public class FlowDecisionStore {

    private static final String COLUMNS = "job_execution_id, sequence, job_instance_id, from_node, to_node, kind, "
            + "plan_fingerprint, input_digest, outcome_code, outcome_description, decided_at";

    private final MetadataSql sql;
    private final JobExecutionStore jobExecutions;
    private final String append;
    private final String selectReusable;
    private final String selectByExecution;

    FlowDecisionStore(MetadataSql sql, RepositoryTables tables, JobExecutionStore jobExecutions) {
        this.sql = sql;
        this.jobExecutions = jobExecutions;
        // One statement. The execution must be active and run the decision's plan (when it recorded
        // a definition). The target must not have started in this execution: its latest attempt in
        // the instance belongs to another execution, or there is none. The next sequence number comes
        // from an upsert of the execution's head row, whose lock numbers concurrent appenders (parallel
        // flows) one after the other; a rolled-back append gives its number back, so there are no gaps.
        this.append = tables.sql("WITH e AS (SELECT id, job_instance_id FROM {p}job_execution WHERE id = ? "
                + "AND status IN " + ACTIVE_STATUSES + " "
                + "AND (definition_fingerprint IS NULL OR definition_fingerprint = ?) FOR SHARE), "
                + "allowed AS (SELECT id, job_instance_id FROM e WHERE CAST(? AS varchar) IS NULL "
                + "OR (SELECT s.job_execution_id FROM {p}step_execution s WHERE s.job_instance_id = e.job_instance_id "
                + "AND s.node_id = CAST(? AS varchar) ORDER BY s.id DESC LIMIT 1) IS DISTINCT FROM e.id), "
                + "head AS (INSERT INTO {p}flow_decision_head AS h (job_execution_id, last_sequence) "
                + "SELECT id, 1 FROM allowed ON CONFLICT (job_execution_id) "
                + "DO UPDATE SET last_sequence = h.last_sequence + 1 RETURNING last_sequence) "
                + "INSERT INTO {p}flow_decision (" + COLUMNS + ") "
                + "SELECT allowed.id, head.last_sequence, allowed.job_instance_id, ?, ?, ?, ?, ?, ?, ?, ? "
                + "FROM allowed, head RETURNING " + COLUMNS);
        this.selectReusable = tables.sql("SELECT " + COLUMNS + " FROM {p}flow_decision WHERE job_instance_id = ? "
                + "AND from_node = ? AND input_digest = ? AND plan_fingerprint = ? AND kind = ? "
                + "ORDER BY job_execution_id DESC, sequence DESC LIMIT 1");
        this.selectByExecution = tables.sql("SELECT " + COLUMNS + " FROM {p}flow_decision WHERE job_execution_id = ? "
                + "ORDER BY sequence");
    }

    public FlowDecision append(FlowDecisionRequest request) {
        String target = request.toNode().map(NodeId::value).orElse(null);
        return sql.queryOne(append, params -> params.bigint(request.jobExecutionId().value())
                .bytes(request.planFingerprint().bytes())
                .text(target).text(target)
                .text(request.fromNode().value()).text(target).text(request.kind().name())
                .bytes(request.planFingerprint().bytes()).bytes(request.inputDigest().bytes())
                .text(request.outcome().code()).text(request.outcome().description())
                .time(storedTime(request.decidedAt())), FlowDecisionStore::decision)
                .orElseThrow(() -> refusal(request));
    }

    public Optional<FlowDecision> findReusable(JobInstanceId jobInstanceId, NodeId nodeId,
            PlanFingerprint planFingerprint, InputDigest inputDigest, FlowTransitionKind kind) {
        return sql.queryOne(selectReusable, params -> params.bigint(jobInstanceId.value()).text(nodeId.value())
                .bytes(inputDigest.bytes()).bytes(planFingerprint.bytes()).text(kind.name()),
                FlowDecisionStore::decision);
    }

    public List<FlowDecision> ofJobExecution(JobExecutionId jobExecutionId) {
        return sql.query(selectByExecution, params -> params.bigint(jobExecutionId.value()),
                FlowDecisionStore::decision);
    }

    /** Names the rule that refused an append. Runs only on the refusal path. */
    private RepositoryException refusal(FlowDecisionRequest request) {
        JobExecutionId id = request.jobExecutionId();
        Optional<JobExecution> found = jobExecutions.get(id);
        if (found.isEmpty()) {
            return new RepositoryException(RepositoryError.JOB_EXECUTION_NOT_FOUND, "job execution " + id
                    + " does not exist");
        }
        JobExecution execution = found.get();
        if (!execution.status().isActive()) {
            return new RepositoryException(RepositoryError.EXECUTION_NOT_ACTIVE, "job execution " + id + " is "
                    + execution.status() + ": flow decisions are appended only while it runs");
        }
        if (execution.definition().isPresent()
                && !execution.definition().get().fingerprint().equals(request.planFingerprint())) {
            return new RepositoryException(RepositoryError.FLOW_PLAN_MISMATCH, "job execution " + id + " runs plan "
                    + execution.definition().get().fingerprint() + ", not " + request.planFingerprint());
        }
        return new RepositoryException(RepositoryError.FLOW_DECISION_TARGET_STARTED, "node "
                + request.toNode().map(NodeId::value).orElse("?") + " already started in job execution " + id
                + ": a decision is appended before its target starts");
    }

    private static FlowDecision decision(SqlRow row) throws SQLException {
        return new FlowDecision(new JobExecutionId(row.bigint("job_execution_id")), row.integer("sequence"),
                new JobInstanceId(row.bigint("job_instance_id")), new NodeId(row.text("from_node")),
                row.optionalText("to_node").map(NodeId::new), row.enumValue("kind", FlowTransitionKind.class),
                PlanFingerprint.of(row.bytes("plan_fingerprint")), InputDigest.of(row.bytes("input_digest")),
                new ExitStatus(row.text("outcome_code"), row.text("outcome_description")), row.time("decided_at"));
    }
}
