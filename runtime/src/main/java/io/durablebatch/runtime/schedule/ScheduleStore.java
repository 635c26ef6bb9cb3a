package io.durablebatch.runtime.schedule;

import static io.durablebatch.runtime.repository.ExecutionRows.storedTime;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.OperationId;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.MetadataSql;
import io.durablebatch.runtime.sql.SqlRow;
import io.durablebatch.runtime.sql.SqlStatement;
import io.durablebatch.schedule.FireOutcome;

/**
 * The shared state of the schedules (one row per job) and their audit. Every change is one
 * conditional statement, so replicas racing for the same fire time settle it on the row: the first
 * to move {@code last_fire_time} past a fire time decides what it became, and the others learn it.
 */
@ApplicationScoped
public class ScheduleStore {

    private static final String COLUMNS = "job_name, paused, paused_by, last_fire_time, last_outcome, "
            + "last_execution_id";
    private static final String EVENT_COLUMNS = "job_name, action, operation_id, actor, fire_time, detail, recorded_at";

    /** One schedule's row. */
    public record Row(String job, boolean paused, Optional<String> pausedBy, Instant lastFireTime,
            Optional<FireOutcome> lastOutcome, Optional<Long> lastExecution) {
    }

    /** One audited decision about a schedule. */
    public record Event(String job, String action, String operationId, String actor, Optional<Instant> fireTime,
            String detail, Instant recordedAt) {
    }

    private final MetadataSql sql;
    private final SqlStatement register;
    private final SqlStatement select;
    private final SqlStatement recordLaunch;
    private final SqlStatement claimSkip;
    private final SqlStatement catchUp;
    private final SqlStatement setPaused;
    private final SqlStatement appendEvent;
    private final SqlStatement events;
    private final SqlStatement event;

    ScheduleStore(MetadataSql sql, RepositoryTables tables) {
        this.sql = sql;
        Map<String, String> columns = Map.of("columns", COLUMNS);
        // a schedule seen for the first time starts from now: nothing before it was ever due
        this.register = tables.statement("register", """
                INSERT INTO {p}schedule (job_name, last_fire_time, updated_at)
                VALUES (:job, :fireTime, :now)
                ON CONFLICT (job_name) DO NOTHING""");
        this.select = tables.statement("select", """
                SELECT {columns} FROM {p}schedule WHERE job_name = :job""", columns);
        // a launch of a fire time another replica recorded as skipped in a race wins: it did run
        this.recordLaunch = tables.statement("recordLaunch", """
                UPDATE {p}schedule
                SET last_fire_time = :fireTime, last_outcome = :outcome, last_execution_id = :executionId,
                    updated_at = :now
                WHERE job_name = :job
                  AND (last_fire_time < :fireTime
                       OR (last_fire_time = :fireTime AND last_outcome NOT IN ('LAUNCHED', 'MISSED_LAUNCHED')))
                RETURNING {columns}""", columns);
        this.claimSkip = tables.statement("claimSkip", """
                UPDATE {p}schedule
                SET last_fire_time = :fireTime, last_outcome = :outcome, updated_at = :now
                WHERE job_name = :job AND last_fire_time < :fireTime
                RETURNING {columns}""", columns);
        // compare-and-set on the fire time the catching-up replica read: one replica decides a gap
        this.catchUp = tables.statement("catchUp", """
                UPDATE {p}schedule
                SET last_fire_time = :fireTime, last_outcome = :outcome,
                    last_execution_id = COALESCE(:executionId, last_execution_id), updated_at = :now
                WHERE job_name = :job AND last_fire_time = :observed
                RETURNING {columns}""", columns);
        this.setPaused = tables.statement("setPaused", """
                UPDATE {p}schedule
                SET paused = :paused, paused_by = :pausedBy, paused_at = :pausedAt, updated_at = :now
                WHERE job_name = :job
                RETURNING {columns}""", columns);
        this.appendEvent = tables.statement("appendEvent", """
                INSERT INTO {p}schedule_event ({events})
                VALUES (:job, :action, :operationId, :actor, :fireTime, :detail, :recordedAt)
                ON CONFLICT (action, actor, operation_id) DO NOTHING
                RETURNING id""", Map.of("events", EVENT_COLUMNS));
        // ordered by the job index's key, the job named as an array: no generic plan walks the primary
        // key filtering the job row by row (all of it for a job without events)
        this.events = tables.statement("events", """
                SELECT {events} FROM {p}schedule_event
                WHERE job_name = ANY (ARRAY[CAST(:job AS varchar)])
                ORDER BY job_name DESC, id DESC
                LIMIT :limit""", Map.of("events", EVENT_COLUMNS));
        this.event = tables.statement("event", """
                SELECT {events} FROM {p}schedule_event
                WHERE action = :action AND actor = :actor AND operation_id = :operationId""",
                Map.of("events", EVENT_COLUMNS));
    }

    /** Creates the job's row, its last fire time {@code now}, unless it exists. */
    public void register(String job, Instant now) {
        sql.update(register, params -> params.text("job", job).time("fireTime", storedTime(now))
                .time("now", storedTime(now)));
    }

    public Optional<Row> row(String job) {
        return sql.queryOne(select, params -> params.text("job", job), ScheduleStore::row);
    }

    /** Records {@code fireTime} as launched; empty if another replica recorded its launch first. */
    public Optional<Row> recordLaunch(String job, Instant fireTime, long executionId, Instant now) {
        return sql.queryOne(recordLaunch, params -> params.text("job", job).time("fireTime", storedTime(fireTime))
                .text("outcome", FireOutcome.LAUNCHED.name()).bigint("executionId", executionId)
                .time("now", storedTime(now)), ScheduleStore::row);
    }

    /** Records {@code fireTime} as skipped; empty if another replica decided it first. */
    public Optional<Row> claimSkip(String job, Instant fireTime, FireOutcome outcome, Instant now) {
        return sql.queryOne(claimSkip, params -> params.text("job", job).time("fireTime", storedTime(fireTime))
                .text("outcome", outcome.name()).time("now", storedTime(now)), ScheduleStore::row);
    }

    /** Moves the last fire time from {@code observed} to {@code fireTime}; empty if it moved meanwhile. */
    public Optional<Row> catchUp(String job, Instant observed, Instant fireTime, FireOutcome outcome,
            Optional<Long> executionId, Instant now) {
        return sql.queryOne(catchUp, params -> params.text("job", job).time("observed", storedTime(observed))
                .time("fireTime", storedTime(fireTime)).text("outcome", outcome.name())
                .bigint("executionId", executionId.orElse(null)).time("now", storedTime(now)), ScheduleStore::row);
    }

    public Optional<Row> setPaused(String job, Optional<ActorRef> pausedBy, Instant now) {
        return sql.queryOne(setPaused, params -> params.text("job", job).bool("paused", pausedBy.isPresent())
                .text("pausedBy", pausedBy.map(ActorRef::value).orElse(null))
                .time("pausedAt", pausedBy.isPresent() ? storedTime(now) : null).time("now", storedTime(now)),
                ScheduleStore::row);
    }

    /** Appends the event; false if the actor already recorded this action under this operation id. */
    public boolean append(String job, String action, OperationId operationId, ActorRef actor,
            Optional<Instant> fireTime, String detail, Instant recordedAt) {
        return sql.queryOne(appendEvent, params -> params.text("job", job).text("action", action)
                .text("operationId", operationId.value()).text("actor", actor.value())
                .time("fireTime", fireTime.map(t -> storedTime(t)).orElse(null)).text("detail", detail)
                .time("recordedAt", storedTime(recordedAt)), row -> row.bigint("id")).isPresent();
    }

    /** The job's latest events, newest first. */
    public List<Event> events(String job, int limit) {
        return sql.query(events, params -> params.text("job", job).integer("limit", limit), ScheduleStore::event);
    }

    /** The actor's event of this action under this operation id. */
    public Optional<Event> event(String action, ActorRef actor, OperationId operationId) {
        return sql.queryOne(event, params -> params.text("action", action).text("actor", actor.value())
                .text("operationId", operationId.value()), ScheduleStore::event);
    }

    private static Event event(SqlRow row) {
        return new Event(row.text("job_name"), row.text("action"), row.text("operation_id"), row.text("actor"),
                row.optionalTime("fire_time"), row.text("detail"), row.time("recorded_at"));
    }

    private static Row row(SqlRow row) {
        return new Row(row.text("job_name"), row.bool("paused"), row.optionalText("paused_by"),
                row.time("last_fire_time"), row.optionalText("last_outcome").map(FireOutcome::valueOf),
                row.optionalBigint("last_execution_id"));
    }
}
