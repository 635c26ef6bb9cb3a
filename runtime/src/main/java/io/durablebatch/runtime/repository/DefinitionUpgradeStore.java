package io.durablebatch.runtime.repository;

import static io.durablebatch.runtime.repository.ExecutionRows.storedTime;

import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;

import io.durablebatch.execution.JobName;
import io.durablebatch.repository.DefinitionUpgrade;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.MetadataSql;
import io.durablebatch.runtime.sql.SqlStatement;

/** Registered definition upgrade edges. Registering an edge twice is harmless. */
@ApplicationScoped
public class DefinitionUpgradeStore {

    private final MetadataSql sql;
    private final SqlStatement insert;

    DefinitionUpgradeStore(MetadataSql sql, RepositoryTables tables) {
        this.sql = sql;
        this.insert = tables.statement("insert", """
                INSERT INTO {p}definition_upgrade (job_name, from_revision, from_fingerprint, to_revision,
                        to_fingerprint, registered_at)
                VALUES (:jobName, :fromRevision, :fromFingerprint, :toRevision, :toFingerprint, :now)
                ON CONFLICT DO NOTHING""");
    }

    public void register(JobName jobName, DefinitionUpgrade upgrade) {
        if (!upgrade.from().jobName().equals(jobName)) {
            throw new RepositoryException(RepositoryError.DEFINITION_JOB_MISMATCH, "the upgrade is for job '"
                    + upgrade.from().jobName() + "', not '" + jobName + "'");
        }
        sql.update(insert, params -> params.text("jobName", jobName.value())
                .text("fromRevision", upgrade.from().revision())
                .bytes("fromFingerprint", upgrade.from().fingerprint().bytes())
                .text("toRevision", upgrade.to().revision())
                .bytes("toFingerprint", upgrade.to().fingerprint().bytes())
                .time("now", storedTime(Instant.now())));
    }
}
