package io.durablebatch.runtime.operator;

import static io.durablebatch.runtime.repository.ExecutionRows.ACTIVE_STATUSES;
import static io.durablebatch.runtime.repository.ExecutionRows.JOB_EXECUTION_COLUMNS;
import static io.durablebatch.runtime.repository.ExecutionRows.LEASE_LIVE;
import static io.durablebatch.runtime.repository.ExecutionRows.storedTime;

import java.time.Instant;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.ExecutionFailure;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.control.ExecutionControl;
import io.durablebatch.repository.control.ExecutionControl.Signal;
import io.durablebatch.repository.control.ExecutionOwnership;
import io.durablebatch.repository.control.OwnerToken;
import io.durablebatch.runtime.entity.JobExecutionEntity;
import io.durablebatch.runtime.repository.ExecutionRows;
import io.durablebatch.runtime.repository.JobExecutionStore;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.MetadataSql;
import io.durablebatch.runtime.sql.SqlRow;
import io.durablebatch.runtime.sql.SqlStatement;

/**
 * Stop requests, owner claims and the owner's observation of control, on the job execution row.
 * Each is one compare-and-swap statement on the common path; only a refusal reads the row again,
 * to name the reason.
 */
@ApplicationScoped
public class ExecutionControlStore {

    /** The ends an owner records in one statement. */
    private static final Set<ExecutionStatus> OWNER_ENDS = EnumSet.of(ExecutionStatus.COMPLETED, ExecutionStatus.FAILED);

    private static final String CONTROL_COLUMNS = "id, status, version, owner_token, stop_requested_at, "
            + "stop_requested_by";

    private final MetadataSql sql;
    private final SqlStatement requestStop;
    private final SqlStatement claim;
    private final SqlStatement observe;
    private final SqlStatement readControl;
    private final SqlStatement readOwnership;
    private final Map<ExecutionStatus, SqlStatement> endOwned = new EnumMap<>(ExecutionStatus.class);
    private final JobExecutionStore jobExecutions;

    ExecutionControlStore(MetadataSql sql, RepositoryTables tables, JobExecutionStore jobExecutions) {
        this.sql = sql;
        this.jobExecutions = jobExecutions;
        this.requestStop = tables.statement("requestStop", """
                UPDATE {p}job_execution
                SET stop_requested_at = :requestedAt, stop_requested_by = :actor, last_updated = :requestedAt,
                    version = version + 1
                WHERE id = :id AND version = :expectedVersion AND status IN {active}
                  AND stop_requested_at IS NULL
                RETURNING {columns}""", Map.of("active", ACTIVE_STATUSES, "columns", JOB_EXECUTION_COLUMNS));
        this.claim = tables.statement("claim", """
                UPDATE {p}job_execution
                SET owner_token = :owner, owner_claimed_at = :claimedAt, last_updated = :claimedAt,
                    lease_expires_at = {lease}, version = version + 1
                WHERE id = :id AND version = :expectedVersion AND status = 'STARTING' AND owner_token IS NULL
                RETURNING {columns}""", Map.of("columns", JOB_EXECUTION_COLUMNS));
        // One statement whatever happens. For the owner of an active execution the UPDATE renews the
        // lease (which is not versioned state: the version stays) and moves a STARTED execution with a
        // pending request to STOPPING. It re-checks its WHERE on the newest row version, so what it
        // returns is current and a concurrent observation moves the execution at most once. For
        // anyone else it matches nothing and the second branch reads the row, to name the refusal.
        String stopping = "status = 'STARTED' AND stop_requested_at IS NOT NULL";
        this.observe = tables.statement("observe", """
                WITH renewed AS (UPDATE {p}job_execution
                                 SET lease_expires_at = {lease},
                                     status = CASE WHEN {stopping} THEN 'STOPPING' ELSE status END,
                                     last_updated = CASE WHEN {stopping} THEN :observedAt ELSE last_updated END,
                                     version = CASE WHEN {stopping} THEN version + 1 ELSE version END
                                 WHERE id = :id AND owner_token = :owner AND status IN {active}
                                 RETURNING {control})
                SELECT {control}, true AS current FROM renewed
                UNION ALL
                SELECT {control}, false FROM {p}job_execution
                WHERE id = :id AND NOT EXISTS (SELECT 1 FROM renewed)""",
                Map.of("stopping", stopping, "active", ACTIVE_STATUSES, "control", CONTROL_COLUMNS));
        // The owner's end of its execution, fenced by its token rather than by a version: a stop
        // request or a lease renewal may have moved the row since the owner last read it, and neither
        // changes what the end records. The kernel's last commit of a job carries it.
        for (ExecutionStatus target : OWNER_ENDS) {
            endOwned.put(target, tables.statement("endOwned[" + target + "]", """
                    UPDATE {p}job_execution
                    SET status = :status, exit_code = :exitCode, exit_description = :exitDescription,
                        failure_type = :failureType, failure_message = :failureMessage,
                        ended_at = :at, last_updated = :at, version = version + 1
                    WHERE id = :id AND owner_token = :owner AND status IN {sources}
                    RETURNING {columns}""", Map.of("sources",
                    ExecutionRows.statusList(target.allowedSources()::contains), "columns", JOB_EXECUTION_COLUMNS)));
        }
        this.readControl = tables.statement("readControl", """
                SELECT {control}, true AS current FROM {p}job_execution WHERE id = :id""",
                Map.of("control", CONTROL_COLUMNS));
        this.readOwnership = tables.statement("readOwnership", """
                SELECT id, owner_token, owner_claimed_at, stop_requested_at, stop_requested_by, lease_expires_at,
                       {leaseLive}
                FROM {p}job_execution WHERE id = :id""", Map.of("leaseLive", LEASE_LIVE));
    }

    /** Who owns the execution, its stop request and its lease, judged live on the database clock. */
    public Optional<ExecutionOwnership> ownership(JobExecutionId id) {
        return sql.queryOne(readOwnership, params -> params.bigint("id", id.value()),
                row -> new ExecutionOwnership(id, row.optionalText("owner_token").map(OwnerToken::new),
                        row.optionalTime("owner_claimed_at"), row.optionalTime("stop_requested_at"),
                        row.optionalText("stop_requested_by").map(ActorRef::new), row.optionalTime("lease_expires_at"),
                        row.bool("lease_live")));
    }

    public JobExecution requestStop(JobExecutionId id, ExecutionVersion expectedVersion, ActorRef actor,
            Instant requestedAt) {
        Instant at = storedTime(requestedAt);
        return sql.queryOne(requestStop, params -> params.bigint("id", id.value())
                .bigint("expectedVersion", expectedVersion.value()).time("requestedAt", at).text("actor", actor.value()),
                JobExecutionEntity.class, ExecutionRows::jobExecution)
                .orElseThrow(() -> stopRefusal(id, expectedVersion));
    }

    public JobExecution claimOwner(JobExecutionId id, ExecutionVersion expectedVersion, OwnerToken owner,
            Instant claimedAt) {
        Instant at = storedTime(claimedAt);
        Optional<JobExecution> claimed = sql.queryOne(claim, params -> params.bigint("id", id.value())
                .bigint("expectedVersion", expectedVersion.value()).text("owner", owner.value()).time("claimedAt", at),
                JobExecutionEntity.class, ExecutionRows::jobExecution);
        if (claimed.isPresent()) {
            return claimed.get();
        }
        ControlState state = control(id);
        if (state.owner().isPresent() && !state.ownedBy(owner)) {
            throw new RepositoryException(RepositoryError.OWNER_MISMATCH, "job execution " + id + " is owned by "
                    + state.owner().get() + ", not " + owner + ": an owner token never takes over an attempt");
        }
        if (state.status() != ExecutionStatus.STARTING) {
            throw new RepositoryException(RepositoryError.OWNER_NOT_CLAIMABLE, "job execution " + id + " is "
                    + state.status() + ": only a STARTING execution can be claimed");
        }
        if (state.ownedBy(owner)) {
            // A repeated claim (e.g. a retry after an unknown commit outcome): already ours, unchanged.
            return jobExecutions.get(id).orElseThrow(() -> notFound(id));
        }
        throw versionConflict(id, state, expectedVersion);
    }

    public ExecutionControl observe(JobExecutionId id, OwnerToken owner, Instant observedAt) {
        Instant at = storedTime(observedAt);
        ControlState state = sql.queryOne(observe, params -> params.bigint("id", id.value()).text("owner", owner.value())
                .time("observedAt", at), ExecutionControlStore::controlState).orElseThrow(() -> notFound(id));
        if (!state.current() && state.ownedBy(owner) && state.status().isActive()) {
            // The UPDATE found a newer row version than this statement's snapshot, no longer active
            // (a concurrent transition committed first): report the row as it is now.
            state = control(id);
        }
        Optional<RepositoryException> refused = notTheOwners(id, owner, state);
        if (refused.isPresent()) {
            throw refused.get();
        }
        return new ExecutionControl(id, state.stopRequested() ? Signal.STOP_REQUESTED : Signal.CONTINUE, state.status(),
                state.version());
    }

    /**
     * Ends an active execution that {@code owner} holds, at whatever version it stands: COMPLETED or
     * FAILED, the ends an owner records without passing STOPPING.
     */
    public JobExecution endOwned(JobExecutionId id, OwnerToken owner, LifecycleTransition end) {
        SqlStatement statement = endOwned.get(end.target());
        if (statement == null) {
            throw new IllegalArgumentException("end.target must be one of " + OWNER_ENDS + ", got " + end.target());
        }
        Instant at = storedTime(end.at());
        Optional<ExitStatus> exitStatus = end.effectiveExitStatus();
        return sql.queryOne(statement, params -> params.text("status", end.target().name())
                .text("exitCode", exitStatus.map(ExitStatus::code).orElseThrow())
                .text("exitDescription", exitStatus.map(ExitStatus::description).orElseThrow())
                .text("failureType", end.failure().map(ExecutionFailure::type).orElse(null))
                .text("failureMessage", end.failure().map(ExecutionFailure::message).orElse(null))
                .time("at", at).bigint("id", id.value()).text("owner", owner.value()),
                JobExecutionEntity.class, ExecutionRows::jobExecution)
                .orElseThrow(() -> endRefusal(id, owner, end.target()));
    }

    /** Names the rule that refused an owner's end. Runs only on the refusal path. */
    private RepositoryException endRefusal(JobExecutionId id, OwnerToken owner, ExecutionStatus target) {
        ControlState state = control(id);
        return notTheOwners(id, owner, state).orElseGet(() -> new RepositoryException(RepositoryError.ILLEGAL_TRANSITION,
                "job execution " + id + " cannot move from " + state.status() + " to " + target));
    }

    /** Why {@code owner} may no longer work on the execution in {@code state}, if it may not. */
    private static Optional<RepositoryException> notTheOwners(JobExecutionId id, OwnerToken owner, ControlState state) {
        if (!state.ownedBy(owner)) {
            return Optional.of(new RepositoryException(RepositoryError.OWNER_MISMATCH, "job execution " + id + " is "
                    + state.owner().map(o -> "owned by " + o).orElse("not claimed by any owner") + ", not by " + owner));
        }
        if (!state.status().isActive()) {
            return Optional.of(new RepositoryException(RepositoryError.EXECUTION_NOT_ACTIVE, "job execution " + id
                    + " is " + state.status() + ": its owner must stop working on it"));
        }
        return Optional.empty();
    }

    /** Names the rule that refused a stop request. Runs only on the refusal path. */
    private RepositoryException stopRefusal(JobExecutionId id, ExecutionVersion expectedVersion) {
        ControlState state = control(id);
        if (!state.version().equals(expectedVersion)) {
            return versionConflict(id, state, expectedVersion);
        }
        if (!state.status().isActive()) {
            return new RepositoryException(RepositoryError.EXECUTION_NOT_ACTIVE, "job execution " + id + " is "
                    + state.status() + ": only an active execution can be asked to stop");
        }
        return new RepositoryException(RepositoryError.STOP_ALREADY_REQUESTED, "job execution " + id
                + " was already asked to stop by " + state.stopRequestedBy().orElse("?") + " at "
                + state.stopRequestedAt().map(Instant::toString).orElse("?"));
    }

    private ControlState control(JobExecutionId id) {
        return sql.queryOne(readControl, params -> params.bigint("id", id.value()), ExecutionControlStore::controlState)
                .orElseThrow(() -> notFound(id));
    }

    private static RepositoryException versionConflict(JobExecutionId id, ControlState state,
            ExecutionVersion expectedVersion) {
        return new RepositoryException(RepositoryError.VERSION_CONFLICT, "job execution " + id + " is at version "
                + state.version() + ", not the expected " + expectedVersion);
    }

    private static RepositoryException notFound(JobExecutionId id) {
        return new RepositoryException(RepositoryError.JOB_EXECUTION_NOT_FOUND, "job execution " + id + " does not exist");
    }

    private static ControlState controlState(SqlRow row) {
        return new ControlState(row.enumValue("status", ExecutionStatus.class), new ExecutionVersion(row.bigint("version")),
                row.optionalText("owner_token"), row.optionalTime("stop_requested_at"),
                row.optionalText("stop_requested_by"), row.bool("current"));
    }

    /** The control columns of one execution row. */
    private record ControlState(ExecutionStatus status, ExecutionVersion version, Optional<String> owner,
            Optional<Instant> stopRequestedAt, Optional<String> stopRequestedBy, boolean current) {

        boolean ownedBy(OwnerToken token) {
            return owner.isPresent() && owner.get().equals(token.value());
        }

        boolean stopRequested() {
            return stopRequestedAt.isPresent();
        }
    }
}
