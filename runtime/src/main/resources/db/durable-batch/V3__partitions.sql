-- Partitioned steps: one plan per parent step attempt, one row per partition.
-- Shipped migrations are never edited: later changes are new versions.

-- The plan header. Its primary key makes "one plan per parent" a database fact: two racing plan
-- creators cannot both publish, and the loser publishes no partition at all.
CREATE TABLE ${prefix}step_partition_plan (
    parent_step_execution_id bigint      PRIMARY KEY REFERENCES ${prefix}step_execution (id),
    partition_count          integer     NOT NULL CHECK (partition_count > 0),
    -- the parent step attempt whose plan this one restarts (lineage inside one instance, which is
    -- purged whole, so it needs no foreign key)
    restarted_from           bigint,
    created_at               timestamptz NOT NULL
);

-- STARTING = unassigned work, STARTED = assigned to a worker step attempt; COMPLETED, FAILED and
-- STOPPED are copied from that worker's durable row. Keys are bytea, so they order byte-wise
-- (unsigned) whatever the database collation.
CREATE TABLE ${prefix}step_partition (
    id                       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    parent_step_execution_id bigint       NOT NULL REFERENCES ${prefix}step_partition_plan (parent_step_execution_id),
    ordinal                  integer      NOT NULL CHECK (ordinal > 0),
    partition_key            bytea        NOT NULL CHECK (octet_length(partition_key) BETWEEN 1 AND 512),
    input                    bytea        NOT NULL CHECK (octet_length(input) <= 16384),
    status                   varchar(16)  NOT NULL CHECK (status IN
        ('STARTING', 'STARTED', 'STOPPED', 'FAILED', 'COMPLETED')),
    worker_step_execution_id bigint       REFERENCES ${prefix}step_execution (id),
    exit_code                varchar(100) NOT NULL,
    exit_description         text         NOT NULL DEFAULT '',
    read_count               bigint       NOT NULL DEFAULT 0,
    write_count              bigint       NOT NULL DEFAULT 0,
    filter_count             bigint       NOT NULL DEFAULT 0,
    read_skip_count          bigint       NOT NULL DEFAULT 0,
    process_skip_count       bigint       NOT NULL DEFAULT 0,
    write_skip_count         bigint       NOT NULL DEFAULT 0,
    commit_count             bigint       NOT NULL DEFAULT 0,
    rollback_count           bigint       NOT NULL DEFAULT 0,
    -- the partition of the restarted plan this one continues (lineage, like the plan's; a foreign
    -- key here would cost a trigger call per inserted partition)
    restarted_from           bigint,
    created_at               timestamptz  NOT NULL,
    assigned_at              timestamptz,
    completed_at             timestamptz,
    last_updated             timestamptz  NOT NULL,
    version                  bigint       NOT NULL DEFAULT 0,
    -- unassigned work has no worker; everything else names the worker its result came from
    CHECK ((status = 'STARTING') = (worker_step_execution_id IS NULL)),
    CONSTRAINT ${prefix}step_partition_key_uq UNIQUE (parent_step_execution_id, partition_key),
    CONSTRAINT ${prefix}step_partition_ordinal_uq UNIQUE (parent_step_execution_id, ordinal)
);
-- A worker step attempt runs one partition of a plan. Unassigned partitions are left out of the index.
CREATE UNIQUE INDEX ${prefix}step_partition_worker_uq ON ${prefix}step_partition
    (parent_step_execution_id, worker_step_execution_id) WHERE worker_step_execution_id IS NOT NULL;
-- Claiming: the next unassigned partition of a plan in entry order. Only unassigned rows are indexed,
-- so the index shrinks as the plan is worked off.
CREATE INDEX ${prefix}step_partition_unassigned_ix ON ${prefix}step_partition (parent_step_execution_id, ordinal)
    WHERE status = 'STARTING';
-- The worker's foreign key, checked when a step execution is deleted (purge).
CREATE INDEX ${prefix}step_partition_worker_ix ON ${prefix}step_partition (worker_step_execution_id)
    WHERE worker_step_execution_id IS NOT NULL;
