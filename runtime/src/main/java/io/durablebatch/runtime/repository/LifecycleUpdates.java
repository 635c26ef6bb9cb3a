package io.durablebatch.runtime.repository;

import static io.durablebatch.runtime.repository.ExecutionRows.storedTime;

import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import jakarta.persistence.Entity;

import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.StepProgress;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.EntityQuery;
import io.durablebatch.runtime.sql.MetadataSql;
import io.durablebatch.runtime.sql.SqlParams;
import io.durablebatch.runtime.sql.SqlStatement;

/**
 * Compare-and-swap mutations of one execution table (job or step executions). Each mutation is one
 * {@code UPDATE ... WHERE id = :id AND version = :expectedVersion AND status IN (allowed sources)
 * RETURNING}: the lifecycle table and the version check are enforced by the same statement that
 * applies the change, so the common path costs one round trip. Only a refusal reads the row again, to say why.
 */
final class LifecycleUpdates<E, T> {

    /** A step's progress, each column kept where its parameter is null. */
    private static final String STEP_PROGRESS = """
            , checkpoint = COALESCE(:checkpoint, checkpoint),
                read_count = COALESCE(:readCount, read_count), write_count = COALESCE(:writeCount, write_count),
                filter_count = COALESCE(:filterCount, filter_count),
                read_skip_count = COALESCE(:readSkipCount, read_skip_count),
                process_skip_count = COALESCE(:processSkipCount, process_skip_count),
                write_skip_count = COALESCE(:writeSkipCount, write_skip_count),
                commit_count = COALESCE(:commitCount, commit_count),
                rollback_count = COALESCE(:rollbackCount, rollback_count)""";

    /** A running step attempt holds a lease, renewed by each of its progress records. */
    private static final String STEP_LEASE = ", lease_expires_at = {lease}";

    private final MetadataSql sql;
    private final Class<E> entity;
    private final MetadataSql.RowMapper<T> mapper;
    private final boolean stepTable;
    private final String kind;
    private final RepositoryError notFound;
    private final Map<ExecutionStatus, SqlStatement> transitions = new EnumMap<>(ExecutionStatus.class);
    private final SqlStatement progressObservingStop;
    private final SqlStatement enrichExitStatus;
    private final EntityQuery<Object[]> diagnose;

    /**
     * Builds the statements of {@code table}. The job and the step instance build the same fields, so
     * each statement's name carries the table (and a transition's, its target) as well.
     */
    LifecycleUpdates(MetadataSql sql, RepositoryTables tables, String table, String columns, Class<E> entity,
            MetadataSql.RowMapper<T> mapper, boolean stepTable, String kind, RepositoryError notFound) {
        this.sql = sql;
        this.entity = entity;
        this.mapper = mapper;
        this.stepTable = stepTable;
        this.kind = kind;
        this.notFound = notFound;
        for (ExecutionStatus target : ExecutionStatus.values()) {
            Set<ExecutionStatus> sources = sources(target);
            if (!sources.isEmpty()) {
                transitions.put(target, tables.statement("transitions[" + table + ", " + target + "]", """
                        UPDATE {p}{table}
                        SET status = :status, exit_code = COALESCE(:exitCode, exit_code),
                            exit_description = COALESCE(:exitDescription, exit_description),
                            failure_type = COALESCE(:failureType, failure_type),
                            failure_message = COALESCE(:failureMessage, failure_message),
                            started_at = COALESCE(started_at, :startedAt), ended_at = COALESCE(ended_at, :endedAt),
                            last_updated = :at, version = version + 1{stepProgress}{stepLease}
                        WHERE id = :id
                          AND version = :expectedVersion
                          AND status IN {sources}
                        RETURNING {columns}""",
                        Map.of("table", table, "columns", columns, "sources", ExecutionRows.statusList(sources::contains),
                                "stepProgress", stepTable ? STEP_PROGRESS : "",
                                "stepLease", stepTable && target == ExecutionStatus.STARTED ? STEP_LEASE : "")));
            }
        }
        // A step's progress alone: only the columns progress changes (and the renewed lease), and back
        // only what the caller cannot know (the new version) and, from its job execution, whether a
        // stop is pending. The kernel's whole chunk commit in one lean round trip.
        this.progressObservingStop = stepTable ? tables.statement("progressObservingStop[" + table + "]", """
                UPDATE {p}{table}
                SET checkpoint = COALESCE(:checkpoint, checkpoint), read_count = :readCount, write_count = :writeCount,
                    filter_count = :filterCount, read_skip_count = :readSkipCount,
                    process_skip_count = :processSkipCount, write_skip_count = :writeSkipCount,
                    commit_count = :commitCount, rollback_count = :rollbackCount, last_updated = :at,
                    version = version + 1{stepLease}
                WHERE id = :id
                  AND version = :expectedVersion
                  AND status = 'STARTED'
                RETURNING version,
                    (SELECT j.stop_requested_at IS NOT NULL FROM {p}job_execution j WHERE j.id = job_execution_id)
                        AS stop_requested""", Map.of("table", table, "stepLease", STEP_LEASE)) : null;
        this.enrichExitStatus = tables.statement("enrichExitStatus[" + table + "]", """
                UPDATE {p}{table}
                SET exit_code = :exitCode, exit_description = :exitDescription, last_updated = :now,
                    version = version + 1
                WHERE id = :id
                  AND version = :expectedVersion
                RETURNING {columns}""", Map.of("table", table, "columns", columns));
        this.diagnose = tables.query("diagnose[" + table + "]", Object[].class, """
                select e.status, e.version from %s e where e.id = :id"""
                .formatted(entity.getAnnotation(Entity.class).name()));
    }

    T transition(long id, ExecutionVersion expectedVersion, LifecycleTransition transition) {
        if (!stepTable && transition.carriesStepProgress()) {
            throw new IllegalArgumentException("transition.checkpoint and transition.counters apply to step executions only");
        }
        return transition(transitions.get(transition.target()), id, expectedVersion, transition);
    }

    /**
     * A running step's progress (its checkpoint, if any, and counters), which also reads whether a
     * stop was requested for the step's job execution. One statement when accepted; a refusal is
     * named as {@link #transition} names it.
     */
    StepProgress progressObservingStop(StepExecutionId id, ExecutionVersion expectedVersion, Optional<Checkpoint> checkpoint,
            StepCounters counters, Instant at) {
        if (!stepTable) {
            throw new IllegalStateException("only steps record progress");
        }
        Instant stored = storedTime(at);
        // the kernel's per-chunk statement: plain JDBC on the enlisted connection (MetadataSql says why)
        return sql.queryOneByJdbc(progressObservingStop, params -> bindCounters(params, Optional.of(counters))
                .bytes("checkpoint", checkpoint.map(Checkpoint::bytes).orElse(null))
                .time("at", stored)
                .bigint("id", id.value())
                .bigint("expectedVersion", expectedVersion.value()),
                row -> new StepProgress(id, new ExecutionVersion(row.bigint("version")), stored, row.bool("stop_requested")))
                .orElseThrow(() -> refusal(id.value(), expectedVersion, ExecutionStatus.STARTED));
    }

    private T transition(SqlStatement update, long id, ExecutionVersion expectedVersion, LifecycleTransition transition) {
        ExecutionStatus target = transition.target();
        if (update != null) {
            Instant at = storedTime(transition.at());
            Optional<ExitStatus> exitStatus = transition.effectiveExitStatus();
            Optional<StepCounters> counters = transition.counters();
            // a launch's and a step boundary's transitions: plain JDBC, as the chunk's statement (MetadataSql)
            Optional<T> updated = sql.queryOneByJdbc(update, params -> {
                params.text("status", target.name())
                        .text("exitCode", exitStatus.map(ExitStatus::code).orElse(null))
                        .text("exitDescription", exitStatus.map(ExitStatus::description).orElse(null))
                        .text("failureType", transition.failure().map(f -> f.type()).orElse(null))
                        .text("failureMessage", transition.failure().map(f -> f.message()).orElse(null))
                        .time("startedAt", target == ExecutionStatus.STARTED ? at : null)
                        .time("endedAt", endsExecution(target) ? at : null)
                        .time("at", at);
                if (stepTable) {
                    bindCounters(params, counters).bytes("checkpoint",
                            transition.checkpoint().map(c -> c.bytes()).orElse(null));
                }
                params.bigint("id", id).bigint("expectedVersion", expectedVersion.value());
            }, mapper);
            if (updated.isPresent()) {
                return updated.get();
            }
        }
        throw refusal(id, expectedVersion, target);
    }

    T enrichExitStatus(long id, ExecutionVersion expectedVersion, ExitStatus exitStatus, Instant now) {
        return sql.queryOneByJdbc(enrichExitStatus, params -> params.text("exitCode", exitStatus.code())
                .text("exitDescription", exitStatus.description())
                .time("now", storedTime(now))
                .bigint("id", id)
                .bigint("expectedVersion", expectedVersion.value()), mapper)
                .orElseThrow(() -> refusal(id, expectedVersion, null));
    }

    /** Reads the row once more to name the reason of a refused compare-and-swap. */
    private RepositoryException refusal(long id, ExecutionVersion expectedVersion, ExecutionStatus target) {
        Optional<Object[]> current = sql.one(diagnose, Map.of("id", id));
        if (current.isEmpty()) {
            return new RepositoryException(notFound, kind + " " + id + " does not exist");
        }
        ExecutionStatus status = (ExecutionStatus) current.get()[0];
        long version = (Long) current.get()[1];
        if (version != expectedVersion.value()) {
            return new RepositoryException(RepositoryError.VERSION_CONFLICT, kind + " " + id + " is at version "
                    + version + ", not the expected " + expectedVersion);
        }
        return new RepositoryException(RepositoryError.ILLEGAL_TRANSITION, kind + " " + id + " cannot move from "
                + status + " to " + target + (status == ExecutionStatus.UNKNOWN ? " (only recovery resolves UNKNOWN)" : ""));
    }

    /** Binds a step's eight counters, each null where {@code counters} is empty. */
    private static SqlParams bindCounters(SqlParams params, Optional<StepCounters> counters) {
        return params.bigint("readCount", counters.map(StepCounters::readCount).orElse(null))
                .bigint("writeCount", counters.map(StepCounters::writeCount).orElse(null))
                .bigint("filterCount", counters.map(StepCounters::filterCount).orElse(null))
                .bigint("readSkipCount", counters.map(StepCounters::readSkipCount).orElse(null))
                .bigint("processSkipCount", counters.map(StepCounters::processSkipCount).orElse(null))
                .bigint("writeSkipCount", counters.map(StepCounters::writeSkipCount).orElse(null))
                .bigint("commitCount", counters.map(StepCounters::commitCount).orElse(null))
                .bigint("rollbackCount", counters.map(StepCounters::rollbackCount).orElse(null));
    }

    private Set<ExecutionStatus> sources(ExecutionStatus target) {
        Set<ExecutionStatus> sources = target.allowedSources();
        if (stepTable && target == ExecutionStatus.STARTED) {
            sources.add(ExecutionStatus.STARTED); // a step records progress while it stays STARTED
        }
        return sources;
    }

    static boolean endsExecution(ExecutionStatus status) {
        return !status.isUnresolved();
    }
}
