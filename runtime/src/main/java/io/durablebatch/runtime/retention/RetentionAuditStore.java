package io.durablebatch.runtime.retention;

import static io.durablebatch.runtime.repository.ExecutionRows.storedTime;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.OperationId;
import io.durablebatch.execution.RequestDigest;
import io.durablebatch.repository.Page;
import io.durablebatch.repository.PageRequest;
import io.durablebatch.repository.retention.RetentionAction;
import io.durablebatch.repository.retention.RetentionRecord;
import io.durablebatch.repository.retention.RetentionRecordDraft;
import io.durablebatch.runtime.audit.AuditTrail;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.MetadataSql;
import io.durablebatch.runtime.sql.SqlRow;

/** The retention audit: one row per (action, operation id), written in the transaction it audits. */
@ApplicationScoped
public class RetentionAuditStore {

    private static final String COLUMNS = "action, operation_id, actor, job_instance_id, request_digest, outcome, "
            + "recorded_at";

    private final AuditTrail<RetentionRecord> trail;

    RetentionAuditStore(MetadataSql sql, RepositoryTables tables) {
        this.trail = new AuditTrail<>(sql, tables, "retention_action", COLUMNS, RetentionAuditStore::record,
                RetentionRecord::requestDigest, "retention action");
    }

    public RetentionRecord append(RetentionRecordDraft draft) {
        return trail.append(draft.action().name(), draft.actor(), draft.operationId(), draft.requestDigest(),
                params -> params.bigint("jobInstanceId", draft.jobInstanceId().map(JobInstanceId::value).orElse(null))
                        .text("outcome", draft.outcome()).time("recordedAt", storedTime(draft.recordedAt())));
    }

    /**
     * The actor's record under this key, once no concurrent request of the same key is in flight:
     * a retry sent while its original runs waits for it and gets its answer.
     */
    public Optional<RetentionRecord> find(RetentionAction action, ActorRef actor, OperationId operationId) {
        return trail.awaitAndFind(action.name(), actor, operationId);
    }

    /** The records newest first, of one instance or of all. */
    public Page<RetentionRecord> page(Optional<JobInstanceId> instance, PageRequest page) {
        return trail.page(instance, page);
    }

    private static RetentionRecord record(SqlRow row) {
        return new RetentionRecord(row.enumValue("action", RetentionAction.class),
                new OperationId(row.text("operation_id")), new ActorRef(row.text("actor")),
                row.optionalBigint("job_instance_id").map(JobInstanceId::new),
                RequestDigest.of(row.bytes("request_digest")), row.text("outcome"), row.time("recorded_at"));
    }
}
