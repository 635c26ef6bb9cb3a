-- Durable Batch retention: one hold per instance and the retention audit.
-- Shipped migrations are never edited: later changes are new versions.

-- The primary key is the rule "one hold per instance". The foreign key makes placing a hold take a
-- key-share lock on the instance, which a purge's row lock on the same instance waits for (or
-- makes wait): a hold and a purge of one instance never both succeed.
CREATE TABLE ${prefix}retention_hold (
    job_instance_id bigint       PRIMARY KEY REFERENCES ${prefix}job_instance (id) ON DELETE RESTRICT,
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

-- A purge deletes children before parents, so no foreign key ever has to act on a delete; it only
-- checks, once per deleted parent row, that no child is left. ON DELETE NO ACTION (V1's default)
-- makes that check twice: it first looks for another parent row with the same key. RESTRICT checks
-- once, which roughly halves the cost of purging, the foreign key checks being most of it. For keys
-- that are identity columns the two behave the same. (Re-adding a constraint validates it once.)
ALTER TABLE ${prefix}step_execution
    DROP CONSTRAINT ${prefix}step_execution_job_execution_id_fkey,
    ADD CONSTRAINT ${prefix}step_execution_job_execution_id_fkey FOREIGN KEY (job_execution_id)
        REFERENCES ${prefix}job_execution (id) ON DELETE RESTRICT,
    DROP CONSTRAINT ${prefix}step_execution_job_instance_id_fkey,
    ADD CONSTRAINT ${prefix}step_execution_job_instance_id_fkey FOREIGN KEY (job_instance_id)
        REFERENCES ${prefix}job_instance (id) ON DELETE RESTRICT;
ALTER TABLE ${prefix}job_execution
    DROP CONSTRAINT ${prefix}job_execution_job_instance_id_fkey,
    ADD CONSTRAINT ${prefix}job_execution_job_instance_id_fkey FOREIGN KEY (job_instance_id)
        REFERENCES ${prefix}job_instance (id) ON DELETE RESTRICT;
