package io.durablebatch.runtime.audit;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.OperationId;
import io.durablebatch.execution.RequestDigest;
import io.durablebatch.repository.Page;
import io.durablebatch.repository.PageRequest;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.runtime.repository.Keyset;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.MetadataSql;
import io.durablebatch.runtime.sql.MetadataSql.Binder;
import io.durablebatch.runtime.sql.MetadataSql.RowMapper;
import io.durablebatch.runtime.sql.SqlParams;
import io.durablebatch.runtime.sql.SqlStatement;

/**
 * One append-only audit table keyed by (action, actor, operation id), the idempotency rule of
 * operator and retention requests: the first append records the request; appending the same
 * request again (same digest) returns that record; another request under the same key is an
 * {@code OPERATION_CONFLICT}. The key is the caller's own: the same operation id sent by another
 * actor is another operation, which neither sees nor is answered from the first one's record.
 * <p>
 * The insert is {@code ON CONFLICT DO NOTHING} on the unique key, so of two concurrent appends of
 * one key the second waits for the first to commit and then reads its record: no duplicate-key
 * error reaches a caller. {@link #awaitAndFind} waits for a concurrent request of the same key
 * before it looks, so that a retry racing its original is answered from the original's record.
 * <p>
 * The append, the lookup and the lock run as plain JDBC ({@link MetadataSql#queryOneByJdbc}): a
 * launch makes the first two (issue 29); the listing goes through Hibernate's native queries.
 *
 * @param <R> the record type
 */
public final class AuditTrail<R> {

    private final MetadataSql sql;
    private final RowMapper<R> mapper;
    private final Function<R, RequestDigest> digest;
    private final String kind;
    private final SqlStatement insert;
    private final SqlStatement select;
    private final SqlStatement lock;
    private final SqlStatement page;
    private final SqlStatement pageByInstance;
    private final Keyset keyset;

    /**
     * @param table the table name without prefix; it has the columns {@code action} and
     *        {@code operation_id} and a unique key on them
     * @param columns every column an append writes, {@code action}, {@code operation_id} and
     *        {@code request_digest} among them, each bound by its name in camel case
     *        ({@code job_instance_id} as {@code :jobInstanceId}); the same are read back
     * @param kind what a record is, for messages, e.g. {@code "operator request"}
     */
    public AuditTrail(MetadataSql sql, RepositoryTables tables, String table, String columns, RowMapper<R> mapper,
            Function<R, RequestDigest> digest, String kind) {
        this.sql = sql;
        this.mapper = mapper;
        this.digest = digest;
        this.kind = kind;
        String values = Arrays.stream(columns.split(",")).map(column -> ":" + camelCase(column.strip()))
                .collect(Collectors.joining(", "));
        Map<String, String> fragments = Map.of("table", table, "columns", columns, "values", values);
        this.insert = tables.statement("insert[" + table + "]", """
                INSERT INTO {p}{table} ({columns})
                VALUES ({values})
                ON CONFLICT (action, actor, operation_id) DO NOTHING
                RETURNING {columns}""", fragments);
        this.select = tables.statement("select[" + table + "]", """
                SELECT {columns} FROM {p}{table}
                WHERE action = :action AND actor = :actor AND operation_id = :operationId""", fragments);
        // A transaction-scoped lock on the key's hash (a collision only makes two requests wait for
        // each other): held to the end of the request's transaction, so the next statement of a
        // request that waited sees the record of the one it waited for.
        this.lock = tables.statement("lock[" + table + "]", """
                SELECT true AS locked
                FROM pg_advisory_xact_lock(hashtextextended(concat_ws('|', '{table}', CAST(:action AS text),
                        CAST(:actor AS text), CAST(:operationId AS text)), 0))""",
                fragments);
        this.page = tables.statement("page[" + table + "]", """
                SELECT id, {columns} FROM {p}{table}
                WHERE id < :after
                ORDER BY id DESC
                LIMIT :limit""", fragments);
        this.pageByInstance = tables.statement("pageByInstance[" + table + "]", """
                SELECT id, {columns} FROM {p}{table}
                WHERE job_instance_id = ANY (ARRAY[CAST(:jobInstanceId AS bigint)]) AND id < :after
                ORDER BY job_instance_id DESC, id DESC
                LIMIT :limit""", fragments);
        this.keyset = Keyset.newestFirst(table.replace('_', '-'));
    }

    /** The records newest first, of one instance or of all. */
    public Page<R> page(Optional<JobInstanceId> instance, PageRequest request) {
        List<Keyed<R>> rows = sql.query(instance.isPresent() ? pageByInstance : page, params -> {
            instance.ifPresent(id -> params.bigint("jobInstanceId", id.value()));
            params.bigint("after", keyset.after(request)).integer("limit", keyset.limit(request));
        }, row -> new Keyed<>(row.bigint("id"), mapper.map(row)));
        return keyset.page(rows, request, Keyed::key, Keyed::item);
    }

    /** A record and its row's id, the listing's key. */
    private record Keyed<R>(long key, R item) {
    }

    /**
     * Appends a record of the request, {@code values} binding its columns other than the action,
     * actor, operation id and request digest, or returns the same request's record.
     */
    public R append(String action, ActorRef actor, OperationId operationId, RequestDigest requestDigest,
            Binder values) {
        Optional<R> appended = sql.queryOneByJdbc(insert, params -> {
            params.text("action", action).text("actor", actor.value()).text("operationId", operationId.value())
                    .bytes("requestDigest", requestDigest.bytes());
            values.bind(params);
        }, mapper);
        if (appended.isPresent()) {
            return appended.get();
        }
        R recorded = find(action, actor, operationId).orElseThrow(() -> new RepositoryException(RepositoryError.STORAGE_FAILURE,
                kind + " " + action + " " + operationId + " conflicted on insert but cannot be read"));
        if (!digest.apply(recorded).equals(requestDigest)) {
            throw new RepositoryException(RepositoryError.OPERATION_CONFLICT, "operation " + operationId + " already "
                    + "recorded a different " + action + " " + kind + " (request digest " + digest.apply(recorded)
                    + ", not " + requestDigest + ")");
        }
        return recorded;
    }

    /** The record of the actor's request under this key, if any. */
    public Optional<R> find(String action, ActorRef actor, OperationId operationId) {
        return sql.queryOneByJdbc(select, params -> key(params, action, actor, operationId), mapper);
    }

    /**
     * Waits until no other transaction works on the same key, then finds its record: of two
     * requests sent at once with one key, the second is answered from the first one's record.
     * Two statements; the lock is held to the end of the caller's transaction.
     */
    public Optional<R> awaitAndFind(String action, ActorRef actor, OperationId operationId) {
        sql.queryOneByJdbc(lock, params -> key(params, action, actor, operationId), row -> row.bool("locked"));
        return find(action, actor, operationId);
    }

    private static void key(SqlParams params, String action, ActorRef actor, OperationId operationId) {
        params.text("action", action).text("actor", actor.value()).text("operationId", operationId.value());
    }

    /** {@code job_instance_id} as {@code jobInstanceId}. */
    private static String camelCase(String column) {
        StringBuilder name = new StringBuilder(column.length());
        boolean upper = false;
        for (char c : column.toCharArray()) {
            if (c == '_') {
                upper = true;
            } else {
                name.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return name.toString();
    }
}
