-- Durable Batch listings: the operator's keyset pages, newest first, each walked along an index so
-- that a page costs the same at any depth and with any history.
-- Shipped migrations are never edited: later changes are new versions.

-- Executions of one job, newest first.
CREATE INDEX ${prefix}job_execution_job_ix ON ${prefix}job_execution (job_name, id);

-- Executions in given statuses, newest first: FAILED ones among a million COMPLETED. It covers every
-- status, so it replaces the partial index of the unresolved ones, which served the same lookups.
CREATE INDEX ${prefix}job_execution_status_all_ix ON ${prefix}job_execution (status, id);
DROP INDEX ${prefix}job_execution_status_ix;

-- The retention audit of one instance, newest first (the operator and recovery audits have theirs).
CREATE INDEX ${prefix}retention_action_instance_ix ON ${prefix}retention_action (job_instance_id, id);
