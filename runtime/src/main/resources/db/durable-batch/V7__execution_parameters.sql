-- The non-identifying parameters of each attempt, in the canonical encoding of ExecutionParameters.
-- NULL means none; never read by a lookup, so not indexed.
ALTER TABLE ${prefix}job_execution ADD COLUMN parameters bytea;
