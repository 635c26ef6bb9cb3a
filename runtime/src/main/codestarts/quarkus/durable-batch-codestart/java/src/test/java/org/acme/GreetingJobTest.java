package org.acme;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.repository.JobRepository;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
class GreetingJobTest {

    @Inject
    JobOperator operator;

    @Inject
    JobRepository repository;

    @Test
    void theJobGreetsEveryName() {
        // a job instance is the job and its identifying parameters: a new run, a new instance
        JobParameters parameters = JobParameters.of("run", UUID.randomUUID().toString());
        JobExecution execution = operator.runAndWait("greetings", parameters, OperatorCall.by("test"));

        assertEquals(ExecutionStatus.COMPLETED, execution.status());
        List<StepExecution> steps = QuarkusTransaction.requiringNew()
                .call(() -> repository.stepExecutions(execution.id()));
        assertEquals(GreetingJob.NAMES.size(), steps.get(0).counters().writeCount());
        assertEquals(3, steps.get(0).counters().commitCount(), "two chunks of two names, one of one");
    }
}
