package io.durablebatch.runtime.repository;

import static io.durablebatch.runtime.repository.ExecutionRows.storedTime;

import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

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
import io.durablebatch.runtime.sql.MetadataSql;
import io.durablebatch.runtime.sql.MetadataSql.RowMapper;

/**
 * Compare-and-swap mutations of one execution table (job or step executions). Each mutation is one
 * {@code UPDATE ... WHERE id = ? AND version = ? AND status IN (allowed sources) RETURNING}: the
 * lifecycle table and the version check are enforced by the same statement that applies the change,
 * so the common path costs one round trip. Only a refusal reads the row again, to say why.
 */
final class LifecycleUpdates<T> {

    private static final String STEP_PROGRESS = ", checkpoint = COALESCE(?, checkpoint)"
            + ", read_count = COALESCE(?, read_count), write_count = COALESCE(?, write_count)"
            + ", filter_count = COALESCE(?, filter_count), read_skip_count = COALESCE(?, read_skip_count)"
            + ", process_skip_count = COALESCE(?, process_skip_count), write_skip_count = COALESCE(?, write_skip_count)"
            + ", commit_count = COALESCE(?, commit_count), rollback_count = COALESCE(?, rollback_count)";

    /** A running step attempt holds a lease, renewed by each of its progress records. */
    private static final String STEP_LEASE = ", lease_expires_at = {lease}";

    private final MetadataSql sql;
    private final RowMapper<T> mapper;
    private final boolean stepTable;
    private final String kind;
    private final RepositoryError notFound;
    private final Map<ExecutionStatus, String> transitionSql = new EnumMap<>(ExecutionStatus.class);
    private final String progressObservingSql;
    private final String enrichSql;
    private final String diagnoseSql;

    LifecycleUpdates(MetadataSql sql, RepositoryTables tables, String table, String columns, RowMapper<T> mapper,
            boolean stepTable, String kind, RepositoryError notFound) {
        this.sql = sql;
        this.mapper = mapper;
        this.stepTable = stepTable;
        this.kind = kind;
        this.notFound = notFound;
        for (ExecutionStatus target : ExecutionStatus.values()) {
            Set<ExecutionStatus> sources = sources(target);
            if (!sources.isEmpty()) {
                transitionSql.put(target, tables.sql("UPDATE {p}" + table + " SET status = ?"
                        + ", exit_code = COALESCE(?, exit_code), exit_description = COALESCE(?, exit_description)"
                        + ", failure_type = COALESCE(?, failure_type), failure_message = COALESCE(?, failure_message)"
                        + ", started_at = COALESCE(started_at, ?), ended_at = COALESCE(ended_at, ?)"
                        + ", last_updated = ?, version = version + 1" + (stepTable ? STEP_PROGRESS : "")
                        + (stepTable && target == ExecutionStatus.STARTED ? STEP_LEASE : "")
                        + " WHERE id = ? AND version = ? AND status IN (" + quoted(sources) + ") RETURNING " + columns));
            }
        }
        // A step's progress alone: only the columns progress changes (and the renewed lease), and back
        // only what the caller cannot know (the new version) and, from its job execution, whether a
        // stop is pending. The kernel's whole chunk commit in one lean round trip.
        this.progressObservingSql = stepTable ? tables.sql("UPDATE {p}" + table + " SET checkpoint = COALESCE(?, checkpoint)"
                + ", read_count = ?, write_count = ?, filter_count = ?, read_skip_count = ?, process_skip_count = ?"
                + ", write_skip_count = ?, commit_count = ?, rollback_count = ?, last_updated = ?, version = version + 1"
                + STEP_LEASE
                + " WHERE id = ? AND version = ? AND status = 'STARTED' RETURNING version"
                + ", (SELECT j.stop_requested_at IS NOT NULL FROM {p}job_execution j WHERE j.id = job_execution_id)"
                + " AS stop_requested") : null;
        this.enrichSql = tables.sql("UPDATE {p}" + table + " SET exit_code = ?, exit_description = ?, last_updated = ?"
                + ", version = version + 1 WHERE id = ? AND version = ? RETURNING " + columns);
        this.diagnoseSql = tables.sql("SELECT status, version FROM {p}" + table + " WHERE id = ?");
    }

    T transition(long id, ExecutionVersion expectedVersion, LifecycleTransition transition) {
        if (!stepTable && transition.carriesStepProgress()) {
            throw new IllegalArgumentException("transition.checkpoint and transition.counters apply to step executions only");
        }
        return transition(transitionSql.get(transition.target()), id, expectedVersion, transition, mapper);
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
        return sql.queryOne(progressObservingSql, params -> params.bytes(checkpoint.map(Checkpoint::bytes).orElse(null))
                .bigint(counters.readCount()).bigint(counters.writeCount()).bigint(counters.filterCount())
                .bigint(counters.readSkipCount()).bigint(counters.processSkipCount()).bigint(counters.writeSkipCount())
                .bigint(counters.commitCount()).bigint(counters.rollbackCount()).time(stored)
                .bigint(id.value()).bigint(expectedVersion.value()),
                row -> new StepProgress(id, new ExecutionVersion(row.bigint("version")), stored, row.bool("stop_requested")))
                .orElseThrow(() -> refusal(id.value(), expectedVersion, ExecutionStatus.STARTED));
    }

    private <R> R transition(String update, long id, ExecutionVersion expectedVersion, LifecycleTransition transition,
            RowMapper<R> rowMapper) {
        ExecutionStatus target = transition.target();
        if (update != null) {
            Instant at = storedTime(transition.at());
            Optional<ExitStatus> exitStatus = transition.effectiveExitStatus();
            Optional<StepCounters> counters = transition.counters();
            Optional<R> updated = sql.queryOne(update, params -> {
                params.text(target.name())
                        .text(exitStatus.map(ExitStatus::code).orElse(null))
                        .text(exitStatus.map(ExitStatus::description).orElse(null))
                        .text(transition.failure().map(f -> f.type()).orElse(null))
                        .text(transition.failure().map(f -> f.message()).orElse(null))
                        .time(target == ExecutionStatus.STARTED ? at : null)
                        .time(endsExecution(target) ? at : null)
                        .time(at);
                if (stepTable) {
                    params.bytes(transition.checkpoint().map(c -> c.bytes()).orElse(null))
                            .bigint(counters.map(StepCounters::readCount).orElse(null))
                            .bigint(counters.map(StepCounters::writeCount).orElse(null))
                            .bigint(counters.map(StepCounters::filterCount).orElse(null))
                            .bigint(counters.map(StepCounters::readSkipCount).orElse(null))
                            .bigint(counters.map(StepCounters::processSkipCount).orElse(null))
                            .bigint(counters.map(StepCounters::writeSkipCount).orElse(null))
                            .bigint(counters.map(StepCounters::commitCount).orElse(null))
                            .bigint(counters.map(StepCounters::rollbackCount).orElse(null));
                }
                params.bigint(id).bigint(expectedVersion.value());
            }, rowMapper);
            if (updated.isPresent()) {
                return updated.get();
            }
        }
        throw refusal(id, expectedVersion, target);
    }

    T enrichExitStatus(long id, ExecutionVersion expectedVersion, ExitStatus exitStatus, Instant now) {
        return sql.queryOne(enrichSql, params -> params.text(exitStatus.code()).text(exitStatus.description())
                .time(storedTime(now)).bigint(id).bigint(expectedVersion.value()), mapper)
                .orElseThrow(() -> refusal(id, expectedVersion, null));
    }

    /** Reads the row once more to name the reason of a refused compare-and-swap. */
    private RepositoryException refusal(long id, ExecutionVersion expectedVersion, ExecutionStatus target) {
        Optional<Object[]> current = sql.queryOne(diagnoseSql, params -> params.bigint(id),
                row -> new Object[] { row.enumValue("status", ExecutionStatus.class), row.bigint("version") });
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

    static String quoted(Set<ExecutionStatus> statuses) {
        return statuses.stream().map(s -> "'" + s.name() + "'").sorted().collect(Collectors.joining(", "));
    }
}
