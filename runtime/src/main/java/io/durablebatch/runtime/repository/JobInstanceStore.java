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
import io.durablebatch.execution.JobName;
import io.durablebatch.repository.JobInstanceSelection;
import io.durablebatch.repository.Page;
import io.durablebatch.repository.PageRequest;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.runtime.entity.JobInstanceEntity;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.MetadataSql;
import io.durablebatch.runtime.sql.SqlRow;
import io.durablebatch.runtime.sql.SqlStatement;

/**
 * Job instances: one row per canonical key, made unique by the key's SHA-256 digest. The reads and
 * writes of a single instance, which every launch makes, run as plain JDBC mapped by hand
 * ({@link MetadataSql#queryOneByJdbc}, issue 29); the listing maps the entity.
 */
@ApplicationScoped
public class JobInstanceStore {

    private static final String COLUMNS = "id, job_name, key_bytes, key_digest, created_at";
    private static final Keyset KEYSET = Keyset.newestFirst("instance");

    private final MetadataSql sql;
    private final SqlStatement insert;
    private final SqlStatement selectByDigest;
    private final SqlStatement selectById;
    private final SqlStatement lockByDigest;
    private final SqlStatement pageByJob;
    private final SqlStatement countByJob;

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
                SELECT {columns} FROM {p}job_instance WHERE key_digest = :keyDigest""", Map.of("columns", COLUMNS));
        // an existing instance is locked as every operator decision on it locks it
        // (ExecutionRows.LOCK_INSTANCE_OF_EXECUTION); a new one is its creator's alone until it commits
        this.lockByDigest = tables.statement("lockByDigest", """
                SELECT {columns} FROM {p}job_instance
                WHERE key_digest = :keyDigest
                FOR NO KEY UPDATE""", Map.of("columns", COLUMNS));
        this.selectById = tables.statement("selectById", """
                SELECT {columns} FROM {p}job_instance WHERE id = :id""", Map.of("columns", COLUMNS));
        this.pageByJob = tables.statement("pageByJob", """
                SELECT {columns} FROM {p}job_instance
                WHERE job_name = ANY (ARRAY[CAST(:job AS varchar)]) AND id < :after
                ORDER BY job_name DESC, id DESC
                LIMIT :limit""", Map.of("columns", COLUMNS));
        this.countByJob = tables.statement("countByJob", """
                SELECT count(*) AS instances FROM {p}job_instance WHERE job_name = :job""");
    }

    /** The job's instances, newest first: a backward walk of {@code (job_name, id)}. */
    public Page<JobInstance> page(JobName job, PageRequest page) {
        return KEYSET.page(sql.query(pageByJob, params -> params.text("job", job.value())
                .bigint("after", KEYSET.after(page)).integer("limit", KEYSET.limit(page)), JobInstanceEntity.class,
                row -> row), page, row -> row.id, JobInstanceStore::instance);
    }

    /** How many instances the job has, counted on the index the listing walks. */
    public long count(JobName job) {
        return sql.queryOne(countByJob, params -> params.text("job", job.value()), row -> row.bigint("instances"))
                .orElseThrow();
    }

    public JobInstanceSelection selectOrCreate(JobInstanceKey key) {
        ParameterDomainCheck.require(key.parameters());
        Optional<JobInstance> created = sql.queryOneByJdbc(insert, params -> params.text("jobName", key.jobName().value())
                .bytes("keyBytes", key.canonicalBytes())
                .bytes("keyDigest", key.digest())
                .time("now", storedTime(Instant.now())), JobInstanceStore::instance);
        if (created.isPresent()) {
            return new JobInstanceSelection(created.get(), true);
        }
        JobInstance existing = checked(key, sql.queryOneByJdbc(lockByDigest,
                params -> params.bytes("keyDigest", key.digest()), JobInstanceStore::instance))
                .orElseThrow(() -> new RepositoryException(RepositoryError.STORAGE_FAILURE,
                        "the instance for " + key + " conflicted on insert but cannot be read"));
        return new JobInstanceSelection(existing, false);
    }

    public Optional<JobInstance> find(JobInstanceKey key) {
        return checked(key, sql.queryOneByJdbc(selectByDigest, params -> params.bytes("keyDigest", key.digest()),
                JobInstanceStore::instance));
    }

    /** The instance found by {@code key}'s digest, refused if its key is another one. */
    private static Optional<JobInstance> checked(JobInstanceKey key, Optional<JobInstance> found) {
        if (found.isPresent() && !Arrays.equals(found.get().key().canonicalBytes(), key.canonicalBytes())) {
            throw new RepositoryException(RepositoryError.STORAGE_FAILURE, "SHA-256 collision between " + key
                    + " and " + found.get().key());
        }
        return found;
    }

    public Optional<JobInstance> get(JobInstanceId id) {
        return sql.queryOneByJdbc(selectById, params -> params.bigint("id", id.value()), JobInstanceStore::instance);
    }

    private static JobInstance instance(JobInstanceEntity row) {
        return new JobInstance(new JobInstanceId(row.id), JobInstanceKey.fromCanonicalBytes(row.keyBytes), row.createdAt);
    }

    /** A row of {@link #COLUMNS} as the driver read it, mapped as the entity is. */
    private static JobInstance instance(SqlRow row) {
        return new JobInstance(new JobInstanceId(row.bigint("id")), JobInstanceKey.fromCanonicalBytes(row.bytes("key_bytes")),
                row.time("created_at"));
    }
}
