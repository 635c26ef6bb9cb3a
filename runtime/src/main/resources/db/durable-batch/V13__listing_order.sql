-- Durable Batch listings: executions newest first by creation time, each filter a range of the index
-- a page walks, so that a page reads at most (statuses x page size) index entries whatever the
-- filters, the depth or the history.
-- Shipped migrations are never edited: later changes are new versions.

-- Executions in each status, newest first by creation time: every execution listing without an
-- owner or a job (every status when none is given) walks it, the time range as a range of its key.
-- The owner stays included: the startup recovery finds a node's unresolved executions on it alone.
CREATE INDEX ${prefix}job_execution_status_created_ix ON ${prefix}job_execution (status, created_at, id)
    INCLUDE (owner_token);
DROP INDEX ${prefix}job_execution_status_all_ix;

-- Executions of one job in each status, newest first by creation time.
CREATE INDEX ${prefix}job_execution_job_created_ix ON ${prefix}job_execution (job_name, status, created_at, id);
DROP INDEX ${prefix}job_execution_job_ix;

-- Executions an owner token holds, in each status, newest first by creation time; the job is
-- included so that a listing of one job's executions an owner holds checks it on the entries alone.
-- Executions not yet claimed hold no owner and are left out.
CREATE INDEX ${prefix}job_execution_owner_ix ON ${prefix}job_execution (owner_token, status, created_at, id)
    INCLUDE (job_name) WHERE owner_token IS NOT NULL;
