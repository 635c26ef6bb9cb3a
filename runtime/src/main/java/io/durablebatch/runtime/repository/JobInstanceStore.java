package io.durablebatch.runtime.repository;

import static io.durablebatch.runtime.repository.ExecutionRows.storedTime;

import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.durablebatch.execution.JobInstance;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobInstanceKey;
import io.durablebatch.repository.JobInstanceSelection;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.MetadataSql;
import io.durablebatch.runtime.sql.SqlStatement;

/** Job instances: one row per canonical key, made unique by the key's SHA-256 digest. */
@ApplicationScoped
public class JobInstanceStore {

    private static final String COLUMNS = "id, key_bytes, created_at";

    private final MetadataSql sql;
    private final SqlStatement insert;
    private final SqlStatement selectByDigest;
    private final SqlStatement selectById;

    JobInstanceStore(MetadataSql sql, RepositoryTables tables) {
        this.sql = sql;
        // DO NOTHING (not DO UPDATE): a concurrent creator waits for the winner's outcome, then reads
        // its row; no duplicate-key error ever reaches a caller and the existing row is not rewritten.
        this.insert = tables.statement("insert", """
                INSERT INTO {p}job_instance (job_name, key_bytes, key_digest, created_at)
                VALUES (:jobName, :keyBytes, :keyDigest, :now)
                ON CONFLICT (key_digest) DO NOTHING
                RETURNING {columns}""", Map.of("columns", COLUMNS));
        this.selectByDigest = tables.statement("selectByDigest", """
                SELECT {columns}
                FROM {p}job_instance
                WHERE key_digest = :keyDigest""", Map.of("columns", COLUMNS));
        this.selectById = tables.statement("selectById", """
                SELECT {columns}
                FROM {p}job_instance
                WHERE id = :id""", Map.of("columns", COLUMNS));
    }

    public JobInstanceSelection selectOrCreate(JobInstanceKey key) {
        Optional<JobInstance> created = sql.queryOne(insert, params -> params.text("jobName", key.jobName().value())
                .bytes("keyBytes", key.canonicalBytes())
                .bytes("keyDigest", key.digest())
                .time("now", storedTime(Instant.now())), JobInstanceStore::row);
        if (created.isPresent()) {
            return new JobInstanceSelection(created.get(), true);
        }
        JobInstance existing = find(key).orElseThrow(() -> new RepositoryException(RepositoryError.STORAGE_FAILURE,
                "the instance for " + key + " conflicted on insert but cannot be read"));
        return new JobInstanceSelection(existing, false);
    }

    public Optional<JobInstance> find(JobInstanceKey key) {
        Optional<JobInstance> found = sql.queryOne(selectByDigest, params -> params.bytes("keyDigest", key.digest()),
                JobInstanceStore::row);
        if (found.isPresent() && !Arrays.equals(found.get().key().canonicalBytes(), key.canonicalBytes())) {
            throw new RepositoryException(RepositoryError.STORAGE_FAILURE, "SHA-256 collision between " + key
                    + " and " + found.get().key());
        }
        return found;
    }

    public Optional<JobInstance> get(JobInstanceId id) {
        return sql.queryOne(selectById, params -> params.bigint("id", id.value()), JobInstanceStore::row);
    }

    private static JobInstance row(io.durablebatch.runtime.sql.SqlRow row) throws java.sql.SQLException {
        return new JobInstance(new JobInstanceId(row.bigint("id")), JobInstanceKey.fromCanonicalBytes(row.bytes("key_bytes")),
                row.time("created_at"));
    }
}
