-- Durable Batch schedules: the shared state of each job's schedule, and its audit.
-- Shipped migrations are never edited: later changes are new versions.

-- One row per scheduled job, shared by every replica: whether an operator paused it, and the
-- latest fire time it handled (launched or skipped), from which the next start finds missed fires.
-- No foreign key to the execution: the schedule's state outlives the purge of its history.
CREATE TABLE ${prefix}schedule (
    job_name          varchar(200) PRIMARY KEY,
    paused            boolean      NOT NULL DEFAULT false,
    paused_by         varchar(200),
    paused_at         timestamptz,
    last_fire_time    timestamptz  NOT NULL,
    last_outcome      varchar(32)  CHECK (last_outcome IN ('LAUNCHED', 'SKIPPED_OVERLAP', 'SKIPPED_PAUSED',
                                                          'MISSED_SKIPPED', 'MISSED_LAUNCHED')),
    last_execution_id bigint,
    updated_at        timestamptz  NOT NULL,
    CONSTRAINT ${prefix}schedule_paused_ck CHECK (paused = (paused_by IS NOT NULL))
);

-- Append-only audit of what was decided about a schedule: pauses, resumes, misfire decisions and
-- skipped fires. A retried pause finds its record by its operation id.
CREATE TABLE ${prefix}schedule_event (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    job_name     varchar(200)  NOT NULL,
    action       varchar(16)   NOT NULL CHECK (action IN ('PAUSE', 'RESUME', 'MISFIRE', 'SKIP')),
    operation_id varchar(200)  NOT NULL,
    actor        varchar(200)  NOT NULL,
    fire_time    timestamptz,
    detail       varchar(2000) NOT NULL,
    recorded_at  timestamptz   NOT NULL,
    CONSTRAINT ${prefix}schedule_event_operation_uq UNIQUE (action, actor, operation_id)
);
CREATE INDEX ${prefix}schedule_event_job_idx ON ${prefix}schedule_event (job_name, id);
