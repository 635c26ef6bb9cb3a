package io.durablebatch.runtime.audit;

import java.util.Collections;
import java.util.Optional;
import java.util.function.Function;

import io.durablebatch.execution.OperationId;
import io.durablebatch.execution.RequestDigest;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.MetadataSql;
import io.durablebatch.runtime.sql.MetadataSql.PositionalBinder;
import io.durablebatch.runtime.sql.MetadataSql.RowMapper;

/**
 * One append-only audit table keyed by (action, operation id), the idempotency rule of operator and
 * retention requests: the first append records the request; appending the same request again
 * (same digest) returns that record; another request under the same key is an
 * {@code OPERATION_CONFLICT}.
 * <p>
 * The insert is {@code ON CONFLICT DO NOTHING} on the unique key, so of two concurrent appends of
 * one key the second waits for the first to commit and then reads its record: no duplicate-key
 * error reaches a caller.
 *
 * @param <R> the record type
 */
public final class AuditTrail<R> {

    private final MetadataSql sql;
    private final RowMapper<R> mapper;
    private final Function<R, RequestDigest> digest;
    private final String kind;
    private final String insert;
    private final String select;

    /**
     * @param table the table name without prefix; it has the columns {@code action} and
     *        {@code operation_id} and a unique key on them
     * @param columns every column an append writes, in binding order; the same are read back
     * @param kind what a record is, for messages, e.g. {@code "operator request"}
     */
    public AuditTrail(MetadataSql sql, RepositoryTables tables, String table, String columns, RowMapper<R> mapper,
            Function<R, RequestDigest> digest, String kind) {
        this.sql = sql;
        this.mapper = mapper;
        this.digest = digest;
        this.kind = kind;
        String placeholders = String.join(", ", Collections.nCopies(columns.split(",").length, "?"));
        this.insert = tables.sql("INSERT INTO {p}" + table + " (" + columns + ") VALUES (" + placeholders + ") "
                + "ON CONFLICT (action, operation_id) DO NOTHING RETURNING " + columns);
        this.select = tables.sql("SELECT " + columns + " FROM {p}" + table + " WHERE action = ? AND operation_id = ?");
    }

    /** Appends a record binding {@code values} to the columns, or returns the same request's record. */
    public R append(String action, OperationId operationId, RequestDigest requestDigest, PositionalBinder values) {
        Optional<R> appended = sql.queryOne(insert, values, mapper);
        if (appended.isPresent()) {
            return appended.get();
        }
        R recorded = find(action, operationId).orElseThrow(() -> new RepositoryException(RepositoryError.STORAGE_FAILURE,
                kind + " " + action + " " + operationId + " conflicted on insert but cannot be read"));
        if (!digest.apply(recorded).equals(requestDigest)) {
            throw new RepositoryException(RepositoryError.OPERATION_CONFLICT, "operation " + operationId + " already "
                    + "recorded a different " + action + " " + kind + " (request digest " + digest.apply(recorded)
                    + ", not " + requestDigest + ")");
        }
        return recorded;
    }

    public Optional<R> find(String action, OperationId operationId) {
        return sql.queryOne(select, params -> params.text(action).text(operationId.value()), mapper);
    }
}
