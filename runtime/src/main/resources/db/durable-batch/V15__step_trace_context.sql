-- Durable Batch trace context of partitioned steps: the W3C traceparent of a partitioned step's
-- span, written only where the application traces (OpenTelemetry), so that the partitions a
-- remote worker runs, on whatever node, are in the trace of the step they belong to.
-- Shipped migrations are never edited: later changes are new versions.

-- Nullable and never versioned: written once by the process that runs the parent step attempt,
-- before it publishes its plan, and read by the workers of other processes; any other attempt, or
-- one run without tracing, leaves it empty.
ALTER TABLE ${prefix}step_execution ADD COLUMN trace_parent varchar(55);
