package io.durablebatch.runtime.observe;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.MetadataSql;
import io.durablebatch.runtime.sql.SqlStatement;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * The trace context of each execution's job span (its W3C {@code traceparent}), kept with the
 * execution so that the next attempt of its instance, run by whatever process, links to it; and of
 * each partitioned step's span, kept with its attempt so that the partitions a worker of another
 * process runs are in its trace. Only the
 * tracing calls it: without OpenTelemetry it runs no statement. Each call is a short transaction of
 * its own: the job span opens before the runner's first transaction and outside the launch's, and a
 * trace context that cannot be written or read must cost the execution nothing but its link.
 */
@ApplicationScoped
public class TraceContextStore {

    private final MetadataSql sql;
    private final SqlStatement record;
    private final SqlStatement ofAttempt;
    private final SqlStatement recordStep;
    private final SqlStatement ofStep;

    TraceContextStore(MetadataSql sql, RepositoryTables tables) {
        this.sql = sql;
        // Not versioned state: the version stays, so the write never conflicts with the owner's
        // transitions, nor an operator's that read the row before it.
        this.record = tables.statement("record", """
                UPDATE {p}job_execution SET trace_parent = :traceParent WHERE id = :id""");
        // Served by the unique index of the instance's attempts.
        this.ofAttempt = tables.statement("ofAttempt", """
                SELECT trace_parent FROM {p}job_execution WHERE job_instance_id = :jobInstanceId AND attempt = :attempt""");
        this.recordStep = tables.statement("recordStep", """
                UPDATE {p}step_execution SET trace_parent = :traceParent WHERE id = :id""");
        this.ofStep = tables.statement("ofStep", """
                SELECT trace_parent FROM {p}step_execution WHERE id = :id""");
    }

    /** Records {@code traceParent} as the trace context of execution {@code id}. */
    public void record(JobExecutionId id, String traceParent) {
        QuarkusTransaction.requiringNew().run(() -> sql.update(record, params -> params
                .text("traceParent", traceParent).bigint("id", id.value())));
    }

    /** The trace context recorded for attempt {@code attempt} of {@code instance}, if its process traced it. */
    public Optional<String> ofAttempt(JobInstanceId instance, int attempt) {
        return QuarkusTransaction.requiringNew().call(() -> sql.queryOne(ofAttempt, params -> params
                .bigint("jobInstanceId", instance.value()).integer("attempt", attempt),
                row -> Optional.ofNullable(row.text("trace_parent")))).flatMap(found -> found);
    }

    /** Records {@code traceParent} as the trace context of the partitioned step's attempt {@code id}. */
    public void recordStep(StepExecutionId id, String traceParent) {
        QuarkusTransaction.requiringNew().run(() -> sql.update(recordStep, params -> params
                .text("traceParent", traceParent).bigint("id", id.value())));
    }

    /** The trace context recorded for the partitioned step's attempt {@code id}, if its process traced it. */
    public Optional<String> ofStep(StepExecutionId id) {
        return QuarkusTransaction.requiringNew().call(() -> sql.queryOne(ofStep, params -> params
                .bigint("id", id.value()), row -> Optional.ofNullable(row.text("trace_parent")))).flatMap(found -> found);
    }
}
