-- Durable Batch listings: the operator's keyset pages, newest first, each walked along an index so
-- that a page costs the same at any depth and with any history.
-- Shipped migrations are never edited: later changes are new versions.

-- Executions in given statuses (or with a time range or an owner), newest first, walked per status:
-- the FAILED ones among a million COMPLETED. The creation time and the owner are included, so those
-- conditions are checked on the index entries alone. It covers every status, so it replaces the
-- partial index of the unresolved ones, which served the same lookups.
CREATE INDEX ${prefix}job_execution_status_all_ix ON ${prefix}job_execution (status, id)
    INCLUDE (created_at, owner_token);
DROP INDEX ${prefix}job_execution_status_ix;

-- Executions of one job, newest first, walked per status (every status when none is given).
CREATE INDEX ${prefix}job_execution_job_ix ON ${prefix}job_execution (job_name, status, id)
    INCLUDE (created_at, owner_token);

-- The retention audit of one instance, newest first (the operator and recovery audits have theirs).
CREATE INDEX ${prefix}retention_action_instance_ix ON ${prefix}retention_action (job_instance_id, id);
