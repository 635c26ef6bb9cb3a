package org.acme.samples;

import java.time.Duration;
import java.time.LocalDate;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import io.durablebatch.execution.ExecutionParameters;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;

/** Launches the import of a day's file, and restarts a failed one with smaller chunks. */
@ApplicationScoped
public class ImportLauncher {

    private final JobOperator operator;

    ImportLauncher(JobOperator operator) {
        this.operator = operator;
    }

    public JobExecution importDay(LocalDate day, String file) {
        JobParameters parameters = JobParameters.of(Map.of( // identifying: the job instance is the day and its file
                "day", day,
                "file", file))
                .withNonIdentifying("chunkSize", 500L) // this attempt's only: a restart may change it
                .withNonIdentifying("requestedBy", "nightly-scheduler");
        JobExecutionId id = operator.start("importOrders", parameters, OperatorCall.by("nightly-scheduler"));
        return operator.await(id, Duration.ofMinutes(30));
    }

    /** The same instance again, from its checkpoints, with other non-identifying parameters. */
    public JobExecution retryWithSmallerChunks(JobExecutionId failed) {
        JobExecutionId id = operator.restart(failed, ExecutionParameters.of(Map.of("chunkSize", 100L)),
                OperatorCall.by("alice"));
        return operator.await(id, Duration.ofMinutes(30));
    }
}
