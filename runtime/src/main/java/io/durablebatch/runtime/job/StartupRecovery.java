package io.durablebatch.runtime.job;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.ReasonCode;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.repository.RecoveryRequest;
import io.durablebatch.repository.RecoveryResolution;
import io.durablebatch.repository.RecoveryResult;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.runtime.DurableBatchConfig;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.MetadataSql;
import io.durablebatch.runtime.sql.SqlStatement;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * Startup recovery for single-node deployments ({@code quarkus.durable-batch.recovery.startup.enabled}):
 * the executions a previous run of this node left active (owner token {@code <node-id>/<other boot>})
 * whose lease ran out (on the database clock) cannot have an owner any more, so they are recovered
 * as FAILED, restartable, each audited with actor {@code system:startup}. An execution whose lease
 * is live is left alone: another live replica configured with the same node id may be running it
 * (the lease sweeper recovers it once its lease runs out). Runs at runtime init after the job
 * registry, before any startup observer of the application can launch anything.
 */
@Singleton
public class StartupRecovery {

    private static final Logger LOG = Logger.getLogger(StartupRecovery.class);
    static final String ACTOR = "system:startup";
    private static final int BATCH = 1000;

    /** An execution left behind, with the version it was found at. */
    private record LeftBehind(JobExecutionId id, ExecutionVersion version, String owner) {
    }

    private final OperatorAudit audit;
    private final KernelIdentity identity;
    private final MetadataSql sql;
    private final boolean enabled;
    private final SqlStatement leftBehind;

    StartupRecovery(OperatorAudit audit, KernelIdentity identity, MetadataSql sql,
            RepositoryTables tables, DurableBatchConfig config) {
        this.audit = audit;
        this.identity = identity;
        this.sql = sql;
        this.enabled = config.recovery().startup().enabled();
        // Served by the partial index of unresolved executions: its size is what is running, not history.
        this.leftBehind = tables.statement("leftBehind", """
                SELECT id, version, owner_token FROM {p}job_execution
                WHERE status IN ('STARTING', 'STARTED', 'STOPPING', 'UNKNOWN')
                  AND owner_token LIKE :nodeOwners ESCAPE '\\' AND owner_token <> :owner
                  AND (lease_expires_at IS NULL OR lease_expires_at < statement_timestamp())
                ORDER BY id LIMIT {batch}""", Map.of("batch", Integer.toString(BATCH)));
    }

    /** At runtime init, after the job registry: recovers what previous runs left, if enabled. */
    public void recoverAtStartup() {
        if (enabled) {
            recoverPreviousRuns();
        }
    }

    /** Recovers what previous runs of this node left active; returns how many executions it recovered. */
    public int recoverPreviousRuns() {
        if (!identity.nodeIdConfigured()) {
            throw new IllegalStateException("quarkus.durable-batch.recovery.startup.enabled needs an explicit "
                    + "quarkus.durable-batch.node-id that stays the same across restarts of this node");
        }
        int recovered = 0;
        List<LeftBehind> found;
        do {
            found = QuarkusTransaction.requiringNew().call(this::findLeftBehind);
            for (LeftBehind execution : found) {
                recovered += recover(execution) ? 1 : 0;
            }
        } while (found.size() == BATCH);
        LOG.infof("Startup recovery of node '%s': %d execution(s) of previous runs recovered as FAILED", identity.nodeId(),
                recovered);
        return recovered;
    }

    private List<LeftBehind> findLeftBehind() {
        String prefix = identity.nodeId().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "/%";
        return sql.query(leftBehind, params -> params.text("nodeOwners", prefix)
                .text("owner", identity.owner().value()),
                row -> new LeftBehind(JobExecutionId.of(row.bigint("id")), ExecutionVersion.of(row.bigint("version")),
                        row.text("owner_token")));
    }

    private boolean recover(LeftBehind execution) {
        OperatorCall call = OperatorCall.of("startup-recovery:" + execution.id() + ":" + identity.owner(), ACTOR);
        ReasonCode reason = ReasonCode.of("PREVIOUS_BOOT");
        try {
            RecoveryResult result = QuarkusTransaction.requiringNew().call(() -> audit.recover(execution.id(),
                    new RecoveryRequest(call.operationId(), call.actor(), reason, RecoveryResolution.FAILED,
                            execution.version(), Instant.now()),
                    "RECOVERED as FAILED: left active by " + execution.owner()));
            LOG.infof("Recovered job execution %s, left %s by %s, as FAILED: restart it to resume from its checkpoints",
                    execution.id(), result.decision().observedStatus(), execution.owner());
            return true;
        } catch (RepositoryException e) {
            LOG.warnf("Job execution %s left by %s was not recovered: %s", execution.id(), execution.owner(),
                    e.getMessage());
            return false;
        }
    }
}
