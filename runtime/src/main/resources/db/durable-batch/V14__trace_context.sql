-- Durable Batch trace context: the W3C traceparent of each execution's job span, written only where
-- the application traces (OpenTelemetry), so that a restart or an automatic recovery, on whatever
-- node, links to the span of the attempt it replaces.
-- Shipped migrations are never edited: later changes are new versions.

-- Nullable and never versioned: written once by the process that runs the attempt, after its
-- claim, and read by the next attempt's; an execution run without tracing leaves it empty.
ALTER TABLE ${prefix}job_execution ADD COLUMN trace_parent varchar(55);
