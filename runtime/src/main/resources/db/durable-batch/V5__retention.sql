-- Durable Batch retention: one hold per instance and the retention audit.
-- Shipped migrations are never edited: later changes are new versions.

-- The primary key is the rule "one hold per instance". The foreign key makes placing a hold take a
-- key-share lock on the instance, which a purge's row lock on the same instance waits for (or
-- makes wait): a hold and a purge of one instance never both succeed.
CREATE TABLE ${prefix}retention_hold (
    job_instance_id bigint       PRIMARY KEY REFERENCES ${prefix}job_instance (id),
    actor           varchar(200) NOT NULL,
    reason          varchar(100) NOT NULL,
    placed_at       timestamptz  NOT NULL
);

-- Append-only audit: no foreign keys, so a record outlives the purge it describes.
CREATE TABLE ${prefix}retention_action (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    action          varchar(16)   NOT NULL CHECK (action IN ('PLACE_HOLD', 'RELEASE_HOLD', 'PURGE')),
    operation_id    varchar(200)  NOT NULL,
    actor           varchar(200)  NOT NULL,
    job_instance_id bigint,
    request_digest  bytea         NOT NULL CHECK (octet_length(request_digest) = 32),
    outcome         varchar(2000) NOT NULL,
    recorded_at     timestamptz   NOT NULL,
    CONSTRAINT ${prefix}retention_action_operation_uq UNIQUE (action, operation_id)
);
