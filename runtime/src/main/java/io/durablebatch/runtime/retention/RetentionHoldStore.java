package io.durablebatch.runtime.retention;

import static io.durablebatch.runtime.repository.ExecutionRows.storedTime;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.ReasonCode;
import io.durablebatch.repository.Page;
import io.durablebatch.repository.PageRequest;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.retention.RetentionHold;
import io.durablebatch.runtime.entity.RetentionHoldEntity;
import io.durablebatch.runtime.repository.Keyset;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.EntityQuery;
import io.durablebatch.runtime.sql.MetadataSql;
import io.durablebatch.runtime.sql.SqlStatement;

/** Retention holds: at most one per instance, the table's primary key. */
@ApplicationScoped
public class RetentionHoldStore {

    private static final String COLUMNS = "job_instance_id, actor, reason, placed_at";
    private static final Keyset KEYSET = Keyset.newestFirst("hold");

    private final MetadataSql sql;
    private final SqlStatement place;
    private final EntityQuery<RetentionHoldEntity> select;
    private final SqlStatement release;
    private final EntityQuery<Long> instanceExists;
    private final SqlStatement page;

    RetentionHoldStore(MetadataSql sql, RepositoryTables tables) {
        this.sql = sql;
        // The key-share lock on the instance orders this insert with a purge that locked the instance
        // first: the insert waits, then finds the instance gone and inserts nothing. A second hold
        // waits on the primary key for the first one's outcome and then inserts nothing.
        this.place = tables.statement("place", """
                INSERT INTO {p}retention_hold ({columns})
                SELECT i.id, :actor, :reason, :placedAt
                FROM (SELECT id FROM {p}job_instance WHERE id = :jobInstanceId FOR KEY SHARE) i
                ON CONFLICT (job_instance_id) DO NOTHING
                RETURNING {columns}""", Map.of("columns", COLUMNS));
        this.select = tables.query("select", RetentionHoldEntity.class, """
                from DurableBatchRetentionHold h where h.jobInstanceId = :jobInstanceId""");
        this.release = tables.statement("release", """
                DELETE FROM {p}retention_hold
                WHERE job_instance_id = :jobInstanceId
                RETURNING {columns}""", Map.of("columns", COLUMNS));
        this.instanceExists = tables.query("instanceExists", Long.class, """
                select i.id from DurableBatchJobInstance i where i.id = :jobInstanceId""");
        this.page = tables.statement("page", """
                SELECT {columns} FROM {p}retention_hold
                WHERE job_instance_id < :after
                ORDER BY job_instance_id DESC
                LIMIT :limit""", Map.of("columns", COLUMNS));
    }

    /** The holds in place, newest instance first. */
    public Page<RetentionHold> page(PageRequest request) {
        return KEYSET.page(sql.query(page, params -> params.bigint("after", KEYSET.after(request))
                .integer("limit", KEYSET.limit(request)), RetentionHoldEntity.class, row -> row), request,
                row -> row.jobInstanceId, RetentionHoldStore::hold);
    }

    public Optional<RetentionHold> hold(JobInstanceId id) {
        return sql.one(select, Map.of("jobInstanceId", id.value())).map(RetentionHoldStore::hold);
    }

    public RetentionHold place(JobInstanceId id, ActorRef actor, ReasonCode reason, Instant placedAt) {
        Optional<RetentionHold> placed = sql.queryOne(place, params -> params.bigint("jobInstanceId", id.value())
                .text("actor", actor.value()).text("reason", reason.value()).time("placedAt", storedTime(placedAt)),
                RetentionHoldEntity.class, RetentionHoldStore::hold);
        if (placed.isPresent()) {
            return placed.get();
        }
        Optional<RetentionHold> existing = hold(id);
        if (existing.isPresent()) {
            throw new RepositoryException(RepositoryError.HOLD_EXISTS, "job instance " + id + " is already held by "
                    + existing.get().actor() + " (" + existing.get().reason() + ") since " + existing.get().placedAt());
        }
        if (sql.one(instanceExists, Map.of("jobInstanceId", id.value())).isEmpty()) {
            throw new RepositoryException(RepositoryError.JOB_INSTANCE_NOT_FOUND, "job instance " + id
                    + " does not exist");
        }
        throw new RepositoryException(RepositoryError.HOLD_EXISTS, "job instance " + id
                + " got a concurrent hold that has been released since");
    }

    public Optional<RetentionHold> release(JobInstanceId id) {
        return sql.queryOne(release, params -> params.bigint("jobInstanceId", id.value()), RetentionHoldEntity.class,
                RetentionHoldStore::hold);
    }

    private static RetentionHold hold(RetentionHoldEntity row) {
        return new RetentionHold(new JobInstanceId(row.jobInstanceId), new ActorRef(row.actor),
                new ReasonCode(row.reason), row.placedAt);
    }
}
