-- Durable Batch listings: the one filter combination V13 left to a walk that checks entries row by
-- row, one job's executions under an owner token, gets an index of its own.
-- Shipped migrations are never edited: later changes are new versions.

-- Executions an owner token holds of one job, in each status, newest first by creation time. On
-- the owner index the job was checked on each entry, so an owner holding none of the job's
-- executions read all of its own (every page of a node that ran a million). Here the owner, the job
-- and the status are equalities of the key: a page reads at most statuses x page size entries.
-- Executions not yet claimed hold no owner and are left out, as from the owner index.
CREATE INDEX ${prefix}job_execution_owner_job_ix ON ${prefix}job_execution (owner_token, job_name, status, created_at, id)
    WHERE owner_token IS NOT NULL;
