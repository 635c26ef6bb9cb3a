package io.durablebatch.runtime.flow;

import static io.durablebatch.runtime.repository.ExecutionRows.ACTIVE_STATUSES;
import static io.durablebatch.runtime.repository.ExecutionRows.storedTime;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.PlanFingerprint;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.flow.FlowDecision;
import io.durablebatch.repository.flow.FlowDecisionRequest;
import io.durablebatch.repository.flow.FlowTransitionKind;
import io.durablebatch.repository.flow.InputDigest;
import io.durablebatch.repository.flow.NodeId;
import io.durablebatch.runtime.entity.FlowDecisionEntity;
import io.durablebatch.runtime.repository.JobExecutionStore;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.EntityQuery;
import io.durablebatch.runtime.sql.MetadataSql;
import io.durablebatch.runtime.sql.SqlRow;
import io.durablebatch.runtime.sql.SqlStatement;

/**
 * The append-only route decisions of flows. Each execution numbers its decisions from one without
 * gaps; a restart finds a prior decision with exactly the same durable input and replays it. The
 * append, which every flow makes at each route, runs as plain JDBC mapped by hand
 * ({@link MetadataSql#queryOneByJdbc}, issue 29); the reads map the entity.
 */
@ApplicationScoped
public class FlowDecisionStore {

    private static final String COLUMNS = "job_execution_id, sequence, job_instance_id, from_node, to_node, kind, "
            + "plan_fingerprint, input_digest, outcome_code, outcome_description, decided_at";

    private final MetadataSql sql;
    private final JobExecutionStore jobExecutions;
    private final SqlStatement append;
    private final EntityQuery<FlowDecisionEntity> selectReusable;
    private final EntityQuery<FlowDecisionEntity> selectByExecution;

    FlowDecisionStore(MetadataSql sql, RepositoryTables tables, JobExecutionStore jobExecutions) {
        this.sql = sql;
        this.jobExecutions = jobExecutions;
        // One statement. The execution must be active and run the decision's plan (when it recorded
        // a definition). The target must not have started in this execution: its latest attempt in
        // the instance belongs to another execution, or there is none. A STOP's target is exempt: it
        // is the restart position, where the next execution begins, so it may be a node this one ran. The next sequence number comes
        // from an upsert of the execution's head row, whose lock numbers concurrent appenders (parallel
        // flows) one after the other; a rolled-back append gives its number back, so there are no gaps.
        this.append = tables.statement("append", """
                WITH e AS (SELECT id, job_instance_id FROM {p}job_execution
                           WHERE id = :jobExecutionId AND status IN {active}
                             AND (definition_fingerprint IS NULL OR definition_fingerprint = :planFingerprint)
                           FOR SHARE),
                allowed AS (SELECT id, job_instance_id FROM e
                            WHERE CAST(:toNode AS varchar) IS NULL OR CAST(:kind AS varchar) = 'STOP'
                               OR (SELECT s.job_execution_id FROM {p}step_execution s
                                   WHERE s.job_instance_id = e.job_instance_id AND s.node_id = CAST(:toNode AS varchar)
                                   ORDER BY s.id DESC LIMIT 1) IS DISTINCT FROM e.id),
                head AS (INSERT INTO {p}flow_decision_head AS h (job_execution_id, last_sequence)
                         SELECT id, 1 FROM allowed
                         ON CONFLICT (job_execution_id) DO UPDATE SET last_sequence = h.last_sequence + 1
                         RETURNING last_sequence)
                INSERT INTO {p}flow_decision ({columns})
                SELECT allowed.id, head.last_sequence, allowed.job_instance_id, :fromNode, :toNode, :kind,
                       :planFingerprint, :inputDigest, :outcomeCode, :outcomeDescription, :decidedAt
                FROM allowed, head
                RETURNING {columns}""", Map.of("active", ACTIVE_STATUSES, "columns", COLUMNS));
        this.selectReusable = tables.query("selectReusable", FlowDecisionEntity.class, """
                from DurableBatchFlowDecision d
                where d.jobInstanceId = :jobInstanceId and d.fromNode = :fromNode and d.inputDigest = :inputDigest
                  and d.planFingerprint = :planFingerprint and d.kind = :kind
                order by d.jobExecutionId desc, d.sequence desc limit 1""");
        this.selectByExecution = tables.query("selectByExecution", FlowDecisionEntity.class, """
                from DurableBatchFlowDecision d where d.jobExecutionId = :jobExecutionId order by d.sequence""");
    }

    public FlowDecision append(FlowDecisionRequest request) {
        String target = request.toNode().map(NodeId::value).orElse(null);
        return sql.queryOneByJdbc(append, params -> params.bigint("jobExecutionId", request.jobExecutionId().value())
                .bytes("planFingerprint", request.planFingerprint().bytes())
                .text("fromNode", request.fromNode().value()).text("toNode", target)
                .text("kind", request.kind().name()).bytes("inputDigest", request.inputDigest().bytes())
                .text("outcomeCode", request.outcome().code())
                .text("outcomeDescription", request.outcome().description())
                .time("decidedAt", storedTime(request.decidedAt())), FlowDecisionStore::decision)
                .orElseThrow(() -> refusal(request));
    }

    public Optional<FlowDecision> findReusable(JobInstanceId jobInstanceId, NodeId nodeId,
            PlanFingerprint planFingerprint, InputDigest inputDigest, FlowTransitionKind kind) {
        return sql.one(selectReusable, Map.of("jobInstanceId", jobInstanceId.value(), "fromNode", nodeId.value(),
                "inputDigest", inputDigest.bytes(), "planFingerprint", planFingerprint.bytes(), "kind", kind))
                .map(FlowDecisionStore::decision);
    }

    public List<FlowDecision> ofJobExecution(JobExecutionId jobExecutionId) {
        return sql.list(selectByExecution, Map.of("jobExecutionId", jobExecutionId.value())).stream()
                .map(FlowDecisionStore::decision).toList();
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

    /** A row of {@link #COLUMNS} as the driver read it, mapped as the entity is. */
    private static FlowDecision decision(SqlRow row) {
        return new FlowDecision(new JobExecutionId(row.bigint("job_execution_id")), row.integer("sequence"),
                new JobInstanceId(row.bigint("job_instance_id")), new NodeId(row.text("from_node")),
                row.optionalText("to_node").map(NodeId::new), row.enumValue("kind", FlowTransitionKind.class),
                PlanFingerprint.of(row.bytes("plan_fingerprint")), InputDigest.of(row.bytes("input_digest")),
                new ExitStatus(row.text("outcome_code"), row.text("outcome_description")), row.time("decided_at"));
    }

    private static FlowDecision decision(FlowDecisionEntity row) {
        return new FlowDecision(new JobExecutionId(row.jobExecutionId), row.sequence,
                new JobInstanceId(row.jobInstanceId), new NodeId(row.fromNode),
                Optional.ofNullable(row.toNode).map(NodeId::new), row.kind, PlanFingerprint.of(row.planFingerprint),
                InputDigest.of(row.inputDigest), new ExitStatus(row.outcomeCode, row.outcomeDescription),
                row.decidedAt);
    }
}
