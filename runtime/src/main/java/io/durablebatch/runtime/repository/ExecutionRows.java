package io.durablebatch.runtime.repository;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.DefinitionIdentity;
import io.durablebatch.execution.ExecutionFailure;
import io.durablebatch.execution.ExecutionParameters;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.PlanFingerprint;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.execution.StepName;
import io.durablebatch.runtime.entity.ExecutionColumns;
import io.durablebatch.runtime.entity.JobExecutionEntity;
import io.durablebatch.runtime.entity.StepCountersColumns;
import io.durablebatch.runtime.entity.StepExecutionEntity;
import io.durablebatch.runtime.entity.VersionedColumns;
import io.durablebatch.runtime.sql.SqlRow;

/** Column lists of the execution tables, and their entities as SPEC values: one place that knows their shape. */
public final class ExecutionRows {

    public static final String JOB_EXECUTION_COLUMNS = "id, job_instance_id, job_name, attempt, status, exit_code, "
            + "exit_description, failure_type, failure_message, definition_revision, definition_fingerprint, parameters, "
            + "created_at, started_at, ended_at, last_updated, version, owner_token, owner_claimed_at, "
            + "stop_requested_at, stop_requested_by, lease_expires_at";

    public static final String STEP_EXECUTION_COLUMNS = "id, job_execution_id, job_instance_id, step_name, status, "
            + "exit_code, exit_description, failure_type, failure_message, checkpoint, read_count, write_count, "
            + "filter_count, read_skip_count, process_skip_count, write_skip_count, commit_count, rollback_count, "
            + "created_at, started_at, ended_at, last_updated, version, node_id, lease_expires_at";

    /**
     * Whether the execution's lease is live, judged on the database clock when the statement runs
     * (never a node's), as the column {@code lease_live}; no lease is not live.
     */
    public static final String LEASE_LIVE = "COALESCE(lease_expires_at > statement_timestamp(), false) AS lease_live";

    /**
     * A {@code WITH} clause that locks the instance of the job execution {@code :id}
     * ({@code FOR NO KEY UPDATE}: the foreign key checks of new steps and attempts, which take a
     * key-share lock, do not wait for it) as {@code instance}; the query that follows joins it and
     * locks the execution, so the instance is always locked first. The operator's decisions on one
     * instance (start, restart, recover, abandon, stop) hold it: they are made one at a time, each
     * on what the previous one committed, and an ABANDONED attempt stays its instance's last.
     */
    public static final String LOCK_INSTANCE_OF_EXECUTION = """
            WITH instance AS (SELECT id FROM {p}job_instance
                              WHERE id = (SELECT job_instance_id FROM {p}job_execution WHERE id = :id)
                              FOR NO KEY UPDATE)
            """;

    /** The active statuses (SPEC §3) as an SQL list, for {@code status IN ...}. */
    public static final String ACTIVE_STATUSES = statusList(ExecutionStatus::isActive);

    /** The active statuses and UNKNOWN, whose attempts block a new one until resolved, as an SQL list. */
    public static final String UNRESOLVED_STATUSES = statusList(ExecutionStatus::isUnresolved);

    private ExecutionRows() {
    }

    /** The statuses {@code which} accepts as an SQL list, for {@code status IN ...}. */
    public static String statusList(Predicate<ExecutionStatus> which) {
        return Arrays.stream(ExecutionStatus.values()).filter(which).map(status -> "'" + status.name() + "'")
                .collect(Collectors.joining(", ", "(", ")"));
    }

    /** PostgreSQL keeps microseconds: times are truncated before they are written and compared. */
    public static Instant storedTime(Instant time) {
        return time.truncatedTo(ChronoUnit.MICROS);
    }

    public static JobExecution jobExecution(JobExecutionEntity row) {
        JobName jobName = new JobName(row.jobName);
        Optional<DefinitionIdentity> definition = row.definitionRevision == null ? Optional.empty()
                : Optional.of(new DefinitionIdentity(jobName, row.definitionRevision,
                        PlanFingerprint.of(row.definitionFingerprint)));
        return new JobExecution(new JobExecutionId(row.id), new JobInstanceId(row.jobInstanceId), jobName, row.attempt,
                row.status, exitStatus(row), failure(row), definition,
                row.parameters == null ? ExecutionParameters.NONE : ExecutionParameters.fromCanonicalBytes(row.parameters),
                row.createdAt, Optional.ofNullable(row.startedAt), Optional.ofNullable(row.endedAt), row.lastUpdated,
                new ExecutionVersion(row.version));
    }

    /**
     * A row of {@link #JOB_EXECUTION_COLUMNS} as the driver read it, mapped as {@link #jobExecution(JobExecutionEntity)}
     * maps the entity: for reads that go around Hibernate's query machinery.
     */
    public static JobExecution jobExecution(SqlRow row) {
        JobName jobName = new JobName(row.text("job_name"));
        Optional<String> revision = row.optionalText("definition_revision");
        Optional<DefinitionIdentity> definition = revision.map(value -> new DefinitionIdentity(jobName, value,
                PlanFingerprint.of(row.bytes("definition_fingerprint"))));
        String failureType = row.text("failure_type");
        Optional<ExecutionFailure> failure = failureType == null ? Optional.empty()
                : Optional.of(new ExecutionFailure(failureType, row.optionalText("failure_message").orElse("")));
        return new JobExecution(new JobExecutionId(row.bigint("id")), new JobInstanceId(row.bigint("job_instance_id")),
                jobName, row.integer("attempt"), row.enumValue("status", ExecutionStatus.class),
                new ExitStatus(row.text("exit_code"), row.text("exit_description")), failure, definition,
                row.optionalBytes("parameters").map(ExecutionParameters::fromCanonicalBytes)
                        .orElse(ExecutionParameters.NONE),
                row.time("created_at"), row.optionalTime("started_at"), row.optionalTime("ended_at"),
                row.time("last_updated"), new ExecutionVersion(row.bigint("version")));
    }

    public static StepExecution stepExecution(StepExecutionEntity row) {
        return new StepExecution(new StepExecutionId(row.id), new JobExecutionId(row.jobExecutionId),
                new JobInstanceId(row.jobInstanceId), new StepName(row.stepName), row.status,
                exitStatus(row), failure(row),
                Optional.ofNullable(row.checkpoint).map(Checkpoint::of), counters(row.counters), row.createdAt,
                Optional.ofNullable(row.startedAt), Optional.ofNullable(row.endedAt), row.lastUpdated,
                new ExecutionVersion(row.version));
    }

    /** A row of {@link #STEP_EXECUTION_COLUMNS} as the driver read it, mapped as the entity is. */
    public static StepExecution stepExecution(SqlRow row) {
        String failureType = row.text("failure_type");
        Optional<ExecutionFailure> failure = failureType == null ? Optional.empty()
                : Optional.of(new ExecutionFailure(failureType, row.optionalText("failure_message").orElse("")));
        return new StepExecution(new StepExecutionId(row.bigint("id")), new JobExecutionId(row.bigint("job_execution_id")),
                new JobInstanceId(row.bigint("job_instance_id")), new StepName(row.text("step_name")),
                row.enumValue("status", ExecutionStatus.class),
                new ExitStatus(row.text("exit_code"), row.text("exit_description")), failure,
                row.optionalBytes("checkpoint").map(Checkpoint::of),
                new StepCounters(row.bigint("read_count"), row.bigint("write_count"), row.bigint("filter_count"),
                        row.bigint("read_skip_count"), row.bigint("process_skip_count"), row.bigint("write_skip_count"),
                        row.bigint("commit_count"), row.bigint("rollback_count")),
                row.time("created_at"), row.optionalTime("started_at"), row.optionalTime("ended_at"),
                row.time("last_updated"), new ExecutionVersion(row.bigint("version")));
    }

    /** The eight counter columns, which step executions and partitions share. */
    public static StepCounters counters(StepCountersColumns row) {
        return new StepCounters(row.readCount, row.writeCount, row.filterCount, row.readSkipCount,
                row.processSkipCount, row.writeSkipCount, row.commitCount, row.rollbackCount);
    }

    /** The exit code and description columns, which every row with a lifecycle has. */
    public static ExitStatus exitStatus(VersionedColumns row) {
        return new ExitStatus(row.exitCode, row.exitDescription);
    }

    private static Optional<ExecutionFailure> failure(ExecutionColumns row) {
        return row.failureType == null ? Optional.empty()
                : Optional.of(new ExecutionFailure(row.failureType, row.failureMessage == null ? ""
                        : row.failureMessage));
    }
}
