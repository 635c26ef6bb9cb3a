-- Durable Batch exit codes of up to 2000 characters (they were 100): an exit code is the user's
-- free text (Jakarta Batch sets no bound, and its TCK builds one of 120 characters by appending to
-- it step after step). 2000 keeps room for such concatenations while an exit code stays a status,
-- not a payload: no index holds these columns, and widening a varchar rewrites no table.
-- Shipped migrations are never edited: later changes are new versions.
ALTER TABLE ${prefix}job_execution ALTER COLUMN exit_code TYPE varchar(2000);
ALTER TABLE ${prefix}step_execution ALTER COLUMN exit_code TYPE varchar(2000);
ALTER TABLE ${prefix}step_partition ALTER COLUMN exit_code TYPE varchar(2000);
ALTER TABLE ${prefix}flow_decision ALTER COLUMN outcome_code TYPE varchar(2000);
