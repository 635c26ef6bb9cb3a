package io.durablebatch.runtime.repository;

import static io.durablebatch.runtime.repository.ExecutionRows.storedTime;

import java.time.Instant;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import io.durablebatch.execution.JobName;
import io.durablebatch.repository.DefinitionUpgrade;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.EntityQuery;
import io.durablebatch.runtime.sql.MetadataSql;

/** Registered definition upgrade edges. Registering an edge twice is harmless. */
@ApplicationScoped
public class DefinitionUpgradeStore {

    private final MetadataSql sql;
    private final EntityQuery<Integer> insert;

    DefinitionUpgradeStore(MetadataSql sql, RepositoryTables tables) {
        this.sql = sql;
        // registering an upgrade twice is registering it once
        this.insert = tables.mutation("insert", """
                insert into DurableBatchDefinitionUpgrade (jobName, fromRevision, fromFingerprint, toRevision,
                        toFingerprint, registeredAt)
                values (:jobName, :fromRevision, :fromFingerprint, :toRevision, :toFingerprint, :now)
                on conflict do nothing""");
    }

    public void register(JobName jobName, DefinitionUpgrade upgrade) {
        if (!upgrade.from().jobName().equals(jobName)) {
            throw new RepositoryException(RepositoryError.DEFINITION_JOB_MISMATCH, "the upgrade is for job '"
                    + upgrade.from().jobName() + "', not '" + jobName + "'");
        }
        sql.mutate(insert, Map.of("jobName", jobName.value(), "fromRevision", upgrade.from().revision(),
                "fromFingerprint", upgrade.from().fingerprint().bytes(), "toRevision", upgrade.to().revision(),
                "toFingerprint", upgrade.to().fingerprint().bytes(), "now", storedTime(Instant.now())));
    }
}
