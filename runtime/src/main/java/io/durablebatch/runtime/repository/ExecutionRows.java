package io.durablebatch.runtime.repository;

import java.sql.SQLException;
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
import io.durablebatch.runtime.sql.SqlRow;

/** Column lists and row mappers of the execution tables: one place that knows their shape. */
public final class ExecutionRows {

    public static final String JOB_EXECUTION_COLUMNS = "id, job_instance_id, job_name, attempt, status, exit_code, "
            + "exit_description, failure_type, failure_message, definition_revision, definition_fingerprint, parameters, "
            + "created_at, started_at, ended_at, last_updated, version";

    public static final String STEP_EXECUTION_COLUMNS = "id, job_execution_id, job_instance_id, step_name, status, "
            + "exit_code, exit_description, failure_type, failure_message, checkpoint, read_count, write_count, "
            + "filter_count, read_skip_count, process_skip_count, write_skip_count, commit_count, rollback_count, "
            + "created_at, started_at, ended_at, last_updated, version";

    /** The active statuses (SPEC §3) as an SQL list, for {@code status IN ...}. */
    public static final String ACTIVE_STATUSES = sqlList(ExecutionStatus::isActive);

    /** The active statuses and UNKNOWN, whose attempts block a new one until resolved, as an SQL list. */
    public static final String UNRESOLVED_STATUSES = sqlList(ExecutionStatus::isUnresolved);

    private ExecutionRows() {
    }

    private static String sqlList(Predicate<ExecutionStatus> which) {
        return Arrays.stream(ExecutionStatus.values()).filter(which).map(status -> "'" + status.name() + "'")
                .collect(Collectors.joining(", ", "(", ")"));
    }

    /** PostgreSQL keeps microseconds: times are truncated before they are written and compared. */
    public static Instant storedTime(Instant time) {
        return time.truncatedTo(ChronoUnit.MICROS);
    }

    public static JobExecution jobExecution(SqlRow row) throws SQLException {
        JobName jobName = new JobName(row.text("job_name"));
        Optional<String> revision = row.optionalText("definition_revision");
        Optional<DefinitionIdentity> definition = revision.isEmpty() ? Optional.empty()
                : Optional.of(new DefinitionIdentity(jobName, revision.get(),
                        PlanFingerprint.of(row.bytes("definition_fingerprint"))));
        return new JobExecution(new JobExecutionId(row.bigint("id")), new JobInstanceId(row.bigint("job_instance_id")),
                row.integer("attempt"), row.enumValue("status", ExecutionStatus.class), exitStatus(row), failure(row),
                definition, row.optionalBytes("parameters").map(ExecutionParameters::fromCanonicalBytes)
                        .orElse(ExecutionParameters.NONE),
                row.time("created_at"), row.optionalTime("started_at"), row.optionalTime("ended_at"),
                row.time("last_updated"), new ExecutionVersion(row.bigint("version")));
    }

    public static StepExecution stepExecution(SqlRow row) throws SQLException {
        return new StepExecution(new StepExecutionId(row.bigint("id")), new JobExecutionId(row.bigint("job_execution_id")),
                new JobInstanceId(row.bigint("job_instance_id")), new StepName(row.text("step_name")),
                row.enumValue("status", ExecutionStatus.class), exitStatus(row), failure(row),
                row.optionalBytes("checkpoint").map(Checkpoint::of), counters(row), row.time("created_at"),
                row.optionalTime("started_at"), row.optionalTime("ended_at"), row.time("last_updated"),
                new ExecutionVersion(row.bigint("version")));
    }

    /** The eight counter columns, which step executions and partitions share. */
    public static StepCounters counters(SqlRow row) throws SQLException {
        return new StepCounters(row.bigint("read_count"), row.bigint("write_count"), row.bigint("filter_count"),
                row.bigint("read_skip_count"), row.bigint("process_skip_count"), row.bigint("write_skip_count"),
                row.bigint("commit_count"), row.bigint("rollback_count"));
    }

    /** The exit code and description columns, which every execution-like table shares. */
    public static ExitStatus exitStatus(SqlRow row) throws SQLException {
        return new ExitStatus(row.text("exit_code"), row.text("exit_description"));
    }

    private static Optional<ExecutionFailure> failure(SqlRow row) throws SQLException {
        Optional<String> type = row.optionalText("failure_type");
        return type.isEmpty() ? Optional.empty()
                : Optional.of(new ExecutionFailure(type.get(), row.optionalText("failure_message").orElse("")));
    }
}
