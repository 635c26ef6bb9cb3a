package io.durablebatch.runtime.lease;

import static io.durablebatch.runtime.repository.ExecutionRows.ACTIVE_STATUSES;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.repository.control.OperatorAction;
import io.durablebatch.repository.control.OwnerToken;
import io.durablebatch.runtime.DurableBatchConfig;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.EntityQuery;
import io.durablebatch.runtime.sql.MetadataSql;
import io.durablebatch.runtime.sql.ProcessSessions;
import io.durablebatch.runtime.sql.SqlStatement;

/**
 * The kernel's lease statements: renewing the leases a process holds, finding an execution whose
 * lease ran out, and counting automatic restarts. Every comparison uses the database clock
 * ({@code statement_timestamp()}), never a node's. Kernel-internal: not part of the repository API.
 */
@ApplicationScoped
public class LeaseStore {

    /** The actor of everything done because a lease ran out. */
    public static final String ACTOR = "system:lease";

    /** The reason recorded when an owner's lease ran out. */
    public static final String OWNER_LOST = "OWNER_LOST";

    /** What one renewal found: the executions still ours (with a pending stop, or not) and the steps still active. */
    public record Renewal(Set<JobExecutionId> executions, Set<JobExecutionId> stopRequested, Set<StepExecutionId> steps) {
    }

    /** An active execution whose lease ran out, locked by the caller's transaction. */
    public record Expired(JobExecutionId id, ExecutionVersion version, JobInstanceId instance, JobName jobName,
            String owner) {
    }

    private final MetadataSql sql;
    private final SqlStatement renew;
    private final SqlStatement lockExpired;
    private final EntityQuery<Long> ownerLossRestarts;
    private final SqlStatement endSessions;

    LeaseStore(MetadataSql sql, RepositoryTables tables, DurableBatchConfig config) {
        this.sql = sql;
        // One statement per renewal for everything this process runs. A row not returned is no longer
        // ours to run (recovered, released or ended elsewhere). The lease is not versioned state: the
        // version stays, so a renewal never conflicts with the owner's own transitions; only a pending
        // stop request moves a STARTED execution to STOPPING (version + 1), as observing control does.
        this.renew = tables.statement("renew", """
                WITH jobs AS (
                    UPDATE {p}job_execution SET lease_expires_at = {lease},
                        status = CASE WHEN {stopping} THEN 'STOPPING' ELSE status END,
                        last_updated = CASE WHEN {stopping} THEN statement_timestamp() ELSE last_updated END,
                        version = CASE WHEN {stopping} THEN version + 1 ELSE version END
                    WHERE id = ANY (:executionIds) AND owner_token = :owner AND status IN {active}
                    RETURNING id, stop_requested_at IS NOT NULL AS stop_requested
                ), steps AS (
                    UPDATE {p}step_execution SET lease_expires_at = {lease}
                    WHERE id = ANY (:stepExecutionIds) AND status IN {active}
                    RETURNING id
                )
                SELECT 'job' AS kind, id, stop_requested FROM jobs
                UNION ALL SELECT 'step', id, false FROM steps""",
                Map.of("active", ACTIVE_STATUSES, "stopping", "status = 'STARTED' AND stop_requested_at IS NOT NULL"));
        // The sweeper's statement: the oldest expired lease that no other node is recovering right
        // now. Served by the partial lease index, which holds only active, leased executions.
        // A node takes the executions of the jobs it defines, which it can restart; those of jobs no live
        // node defines any more only once their lease ran out ten times over. Never one that runs in
        // the sweeping process itself: its heartbeat renews it (under the same owner token) once the
        // database answers again, and the execution goes on.
        this.lockExpired = tables.statement("lockExpired", """
                SELECT id, version, job_instance_id, job_name, owner_token FROM {p}job_execution
                WHERE status IN {active} AND lease_expires_at < statement_timestamp()
                  AND NOT id = ANY (:runningHere)
                  AND (job_name = ANY (:definedJobs)
                       OR lease_expires_at < statement_timestamp() - interval '{undefinedAfter} milliseconds')
                ORDER BY lease_expires_at LIMIT 1 FOR UPDATE SKIP LOCKED""",
                Map.of("active", ACTIVE_STATUSES,
                        "undefinedAfter", Long.toString(10 * config.lease().duration().toMillis())));
        // The sessions of a process whose lease ran out that still hold a transaction (idle sessions
        // hold no lock): a frozen process cannot end them, and their locks would hold its recovery.
        this.endSessions = tables.statement("endSessions", """
                SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) AS ended FROM pg_stat_activity
                WHERE application_name LIKE :sessions AND state <> 'idle' AND pid <> pg_backend_pid()""");
        this.ownerLossRestarts = tables.query("ownerLossRestarts", Long.class, """
                select count(r) from DurableBatchOperatorRequest r
                where r.jobInstanceId = :jobInstanceId and r.action = :action and r.actor = :actor""");
    }

    /** Renews the leases of the executions (owned by {@code owner}) and step attempts this process runs. */
    public Renewal renew(OwnerToken owner, Collection<JobExecutionId> executions, Collection<StepExecutionId> steps) {
        List<Renewed> renewed = sql.query(renew, params -> params
                .bigints("executionIds", executions.stream().map(JobExecutionId::value).toArray(Long[]::new))
                .text("owner", owner.value())
                .bigints("stepExecutionIds", steps.stream().map(StepExecutionId::value).toArray(Long[]::new)),
                row -> new Renewed(row.text("kind").equals("job"), row.bigint("id"), row.bool("stop_requested")));
        Set<JobExecutionId> ours = new HashSet<>();
        Set<JobExecutionId> stopping = new HashSet<>();
        Set<StepExecutionId> activeSteps = new HashSet<>();
        for (Renewed row : renewed) {
            if (row.job()) {
                ours.add(new JobExecutionId(row.id()));
                if (row.stopRequested()) {
                    stopping.add(new JobExecutionId(row.id()));
                }
            } else {
                activeSteps.add(new StepExecutionId(row.id()));
            }
        }
        return new Renewal(ours, stopping, activeSteps);
    }

    private record Renewed(boolean job, long id, boolean stopRequested) {
    }

    /**
     * Locks the active execution whose lease ran out first, of the jobs this node defines (or of any
     * job, once its lease ran out ten times over), if one is left that no other node holds and that
     * does not run in this process ({@code runningHere}).
     */
    public Optional<Expired> lockExpired(Collection<JobName> defined, Collection<JobExecutionId> runningHere) {
        return sql.queryOne(lockExpired, params -> params.texts("definedJobs",
                defined.stream().map(JobName::value).toArray(String[]::new))
                .bigints("runningHere", runningHere.stream().map(JobExecutionId::value).toArray(Long[]::new)),
                row -> new Expired(new JobExecutionId(row.bigint("id")),
                        new ExecutionVersion(row.bigint("version")), new JobInstanceId(row.bigint("job_instance_id")),
                        new JobName(row.text("job_name")), row.optionalText("owner_token").orElse("?")));
    }

    /**
     * Ends the sessions of the process that held {@code owner} which are inside a transaction, so
     * that their locks go before its executions are recovered; returns how many it ended. An owner
     * token without a boot id (a process of another version) marks no session.
     */
    public long endSessionsOf(String owner) {
        Optional<String> sessions = ProcessSessions.sessionsOf(owner);
        if (sessions.isEmpty()) {
            return 0;
        }
        return sql.queryOne(endSessions, params -> params.text("sessions", sessions.get()), row -> row.bigint("ended"))
                .orElse(0L);
    }

    /** How many times the kernel restarted attempts of {@code instance} because their owner was lost. */
    public long ownerLossRestarts(JobInstanceId instance) {
        return sql.one(ownerLossRestarts, Map.of("jobInstanceId", instance.value(), "action", OperatorAction.RESTART,
                "actor", ACTOR)).orElse(0L);
    }
}
