-- Durable Batch job repository: instances, executions, steps, definition upgrades and recovery.
-- Table names carry the configured prefix (quarkus.durable-batch.schema.table-prefix).
-- Shipped migrations are never edited: later changes are new versions.

CREATE TABLE ${prefix}job_instance (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    job_name        varchar(100) NOT NULL,
    -- canonical encoding of job name + identifying parameters, and its SHA-256
    key_bytes       bytea        NOT NULL,
    key_digest      bytea        NOT NULL CHECK (octet_length(key_digest) = 32),
    created_at      timestamptz  NOT NULL,
    CONSTRAINT ${prefix}job_instance_key_uq UNIQUE (key_digest)
);
CREATE INDEX ${prefix}job_instance_name_ix ON ${prefix}job_instance (job_name, id);

CREATE TABLE ${prefix}job_execution (
    id                     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    job_instance_id        bigint       NOT NULL REFERENCES ${prefix}job_instance (id),
    job_name               varchar(100) NOT NULL,
    attempt                integer      NOT NULL CHECK (attempt > 0),
    status                 varchar(16)  NOT NULL CHECK (status IN
        ('STARTING', 'STARTED', 'STOPPING', 'STOPPED', 'FAILED', 'COMPLETED', 'ABANDONED', 'UNKNOWN')),
    exit_code              varchar(100) NOT NULL,
    exit_description       text         NOT NULL DEFAULT '',
    failure_type           varchar(300),
    failure_message        text,
    definition_revision    varchar(100),
    definition_fingerprint bytea CHECK (octet_length(definition_fingerprint) = 32),
    created_at             timestamptz  NOT NULL,
    started_at             timestamptz,
    ended_at               timestamptz,
    last_updated           timestamptz  NOT NULL,
    version                bigint       NOT NULL DEFAULT 0,
    CHECK ((definition_revision IS NULL) = (definition_fingerprint IS NULL)),
    -- attempts are numbered per instance: two racing creators of the same attempt cannot both win
    CONSTRAINT ${prefix}job_execution_attempt_uq UNIQUE (job_instance_id, attempt)
);
-- At most one unresolved (active or UNKNOWN) attempt per instance, enforced by the database.
CREATE UNIQUE INDEX ${prefix}job_execution_unresolved_uq ON ${prefix}job_execution (job_instance_id)
    WHERE status IN ('STARTING', 'STARTED', 'STOPPING', 'UNKNOWN');
CREATE INDEX ${prefix}job_execution_status_ix ON ${prefix}job_execution (status, id)
    WHERE status IN ('STARTING', 'STARTED', 'STOPPING', 'UNKNOWN');

CREATE TABLE ${prefix}step_execution (
    id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    job_execution_id    bigint       NOT NULL REFERENCES ${prefix}job_execution (id),
    job_instance_id     bigint       NOT NULL REFERENCES ${prefix}job_instance (id),
    step_name           varchar(100) NOT NULL,
    status              varchar(16)  NOT NULL CHECK (status IN
        ('STARTING', 'STARTED', 'STOPPING', 'STOPPED', 'FAILED', 'COMPLETED', 'ABANDONED', 'UNKNOWN')),
    exit_code           varchar(100) NOT NULL,
    exit_description    text         NOT NULL DEFAULT '',
    failure_type        varchar(300),
    failure_message     text,
    checkpoint          bytea,
    read_count          bigint       NOT NULL DEFAULT 0,
    write_count         bigint       NOT NULL DEFAULT 0,
    filter_count        bigint       NOT NULL DEFAULT 0,
    read_skip_count     bigint       NOT NULL DEFAULT 0,
    process_skip_count  bigint       NOT NULL DEFAULT 0,
    write_skip_count    bigint       NOT NULL DEFAULT 0,
    commit_count        bigint       NOT NULL DEFAULT 0,
    rollback_count      bigint       NOT NULL DEFAULT 0,
    created_at          timestamptz  NOT NULL,
    started_at          timestamptz,
    ended_at            timestamptz,
    last_updated        timestamptz  NOT NULL,
    version             bigint       NOT NULL DEFAULT 0
);
CREATE INDEX ${prefix}step_execution_job_ix ON ${prefix}step_execution (job_execution_id, id);
CREATE INDEX ${prefix}step_execution_instance_ix ON ${prefix}step_execution (job_instance_id, step_name, id);

CREATE TABLE ${prefix}definition_upgrade (
    job_name         varchar(100) NOT NULL,
    from_revision    varchar(100) NOT NULL,
    from_fingerprint bytea        NOT NULL,
    to_revision      varchar(100) NOT NULL,
    to_fingerprint   bytea        NOT NULL,
    registered_at    timestamptz  NOT NULL,
    PRIMARY KEY (job_name, from_revision, from_fingerprint, to_revision, to_fingerprint)
);

-- Append-only audit: no foreign keys, so a decision outlives the purge of what it describes.
CREATE TABLE ${prefix}recovery_decision (
    id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    job_execution_id  bigint       NOT NULL,
    job_instance_id   bigint       NOT NULL,
    operation_id      varchar(200) NOT NULL,
    actor             varchar(200) NOT NULL,
    reason            varchar(100) NOT NULL,
    resolution        varchar(16)  NOT NULL CHECK (resolution IN ('FAILED', 'ABANDONED')),
    observed_status   varchar(16)  NOT NULL,
    observed_version  bigint       NOT NULL,
    resulting_version bigint       NOT NULL,
    resolved_steps    integer      NOT NULL,
    decided_at        timestamptz  NOT NULL,
    CONSTRAINT ${prefix}recovery_decision_execution_uq UNIQUE (job_execution_id),
    CONSTRAINT ${prefix}recovery_decision_operation_uq UNIQUE (operation_id)
);
