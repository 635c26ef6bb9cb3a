-- Durable Batch liveness leases: every execution the kernel runs, and every step attempt it runs,
-- carries the instant (on the database clock) after which its owner counts as gone. Owners renew
-- their leases in statements they issue anyway; any node recovers executions whose lease ran out.
-- Shipped migrations are never edited: later changes are new versions.

-- NULL: no lease (an execution no kernel claimed, or one claimed before leases existed); such an
-- execution is never recovered automatically.
ALTER TABLE ${prefix}job_execution ADD COLUMN lease_expires_at timestamptz;
ALTER TABLE ${prefix}step_execution ADD COLUMN lease_expires_at timestamptz;

-- The sweeper's one statement per poll: active executions whose lease ran out, oldest first. Only
-- active, leased executions are indexed, so the index holds what runs now, whatever the history.
CREATE INDEX ${prefix}job_execution_lease_ix ON ${prefix}job_execution (lease_expires_at)
    WHERE status IN ('STARTING', 'STARTED', 'STOPPING') AND lease_expires_at IS NOT NULL;

-- A partition whose worker's lease ran out is released to a new worker, which resumes the
-- checkpoint of the worker named here (lineage inside one instance, purged whole: no foreign key,
-- like restarted_from).
ALTER TABLE ${prefix}step_partition
    ADD COLUMN previous_worker_step_execution_id bigint,
    ADD COLUMN release_count integer NOT NULL DEFAULT 0 CHECK (release_count >= 0);

-- Append-only audit of released partitions: no foreign keys, so it outlives a purge.
CREATE TABLE ${prefix}partition_release (
    id                       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    step_partition_id        bigint       NOT NULL,
    parent_step_execution_id bigint       NOT NULL,
    worker_step_execution_id bigint       NOT NULL,
    reason                   varchar(100) NOT NULL,
    released_at              timestamptz  NOT NULL
);
CREATE INDEX ${prefix}partition_release_parent_ix ON ${prefix}partition_release (parent_step_execution_id, id);

-- Automatic restarts are counted per instance from the operator audit and the recovery audit.
CREATE INDEX ${prefix}operator_request_instance_ix ON ${prefix}operator_request (job_instance_id, id);
CREATE INDEX ${prefix}recovery_decision_instance_ix ON ${prefix}recovery_decision (job_instance_id, id);
