package io.durablebatch.runtime.operator;

import static io.durablebatch.runtime.repository.ExecutionRows.storedTime;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.OperationId;
import io.durablebatch.execution.RequestDigest;
import io.durablebatch.repository.Page;
import io.durablebatch.repository.PageRequest;
import io.durablebatch.repository.control.OperatorAction;
import io.durablebatch.repository.control.OperatorRecord;
import io.durablebatch.repository.control.OperatorRecordDraft;
import io.durablebatch.repository.control.OperatorTarget;
import io.durablebatch.runtime.audit.AuditTrail;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.MetadataSql;
import io.durablebatch.runtime.sql.SqlRow;

/** The operator audit: one row per (action, operation id), written in the transaction of its effect. */
@ApplicationScoped
public class OperatorAuditStore {

    private static final String COLUMNS = "action, operation_id, actor, job_instance_id, job_execution_id, "
            + "request_digest, outcome, recorded_at";

    private final AuditTrail<OperatorRecord> trail;

    OperatorAuditStore(MetadataSql sql, RepositoryTables tables) {
        this.trail = new AuditTrail<>(sql, tables, "operator_request", COLUMNS, OperatorAuditStore::record,
                OperatorRecord::requestDigest, "operator request");
    }

    public OperatorRecord append(OperatorRecordDraft draft) {
        return trail.append(draft.action().name(), draft.actor(), draft.operationId(), draft.requestDigest(),
                params -> params.bigint("jobInstanceId", draft.target().jobInstanceId().value())
                        .bigint("jobExecutionId", draft.target().jobExecutionId().map(JobExecutionId::value).orElse(null))
                        .text("outcome", draft.outcome()).time("recordedAt", storedTime(draft.recordedAt())));
    }

    /**
     * The actor's record under this key. One statement: the kernel takes the lock of what the
     * request acts on (its instance or execution) first, which orders two requests of one key.
     */
    public Optional<OperatorRecord> find(OperatorAction action, ActorRef actor, OperationId operationId) {
        return trail.find(action.name(), actor, operationId);
    }

    /** The records newest first, of one instance or of all. */
    public Page<OperatorRecord> page(Optional<JobInstanceId> instance, PageRequest page) {
        return trail.page(instance, page);
    }

    private static OperatorRecord record(SqlRow row) {
        OperatorTarget target = new OperatorTarget(new JobInstanceId(row.bigint("job_instance_id")),
                row.optionalBigint("job_execution_id").map(JobExecutionId::new));
        return new OperatorRecord(row.enumValue("action", OperatorAction.class), new OperationId(row.text("operation_id")),
                new ActorRef(row.text("actor")), target, RequestDigest.of(row.bytes("request_digest")),
                row.text("outcome"), row.time("recorded_at"));
    }
}
