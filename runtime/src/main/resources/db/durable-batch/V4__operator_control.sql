-- Durable Batch operator control: durable stop requests, owner claims and the operator audit.
-- Shipped migrations are never edited: later changes are new versions.

-- The owner token is evidence of which process runs an attempt, never a lease: it has no expiry.
-- A stop request is recorded apart from the status; the owner moves the execution to STOPPING.
ALTER TABLE ${prefix}job_execution
    ADD COLUMN owner_token       varchar(200),
    ADD COLUMN owner_claimed_at  timestamptz,
    ADD COLUMN stop_requested_at timestamptz,
    ADD COLUMN stop_requested_by varchar(200),
    ADD CONSTRAINT ${prefix}job_execution_owner_ck CHECK ((owner_token IS NULL) = (owner_claimed_at IS NULL)),
    ADD CONSTRAINT ${prefix}job_execution_stop_ck CHECK ((stop_requested_at IS NULL) = (stop_requested_by IS NULL));

-- Append-only audit: no foreign keys, so a request outlives the purge of what it acted on.
CREATE TABLE ${prefix}operator_request (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    action           varchar(16)   NOT NULL CHECK (action IN ('START', 'RESTART', 'STOP', 'ABANDON', 'RECOVER')),
    operation_id     varchar(200)  NOT NULL,
    actor            varchar(200)  NOT NULL,
    job_instance_id  bigint        NOT NULL,
    job_execution_id bigint,
    request_digest   bytea         NOT NULL CHECK (octet_length(request_digest) = 32),
    outcome          varchar(2000) NOT NULL,
    recorded_at      timestamptz   NOT NULL,
    -- a retried request finds its record; a reused operation id with another request is refused
    CONSTRAINT ${prefix}operator_request_operation_uq UNIQUE (action, operation_id)
);
