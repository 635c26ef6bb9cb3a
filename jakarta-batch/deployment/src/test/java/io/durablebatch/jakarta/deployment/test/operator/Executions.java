package io.durablebatch.jakarta.deployment.test.operator;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.EnumSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;

import jakarta.batch.operations.JobOperator;
import jakarta.batch.runtime.BatchRuntime;
import jakarta.batch.runtime.BatchStatus;
import jakarta.batch.runtime.JobExecution;
import jakarta.batch.runtime.StepExecution;

/** Waiting for Jakarta executions, as a Jakarta client does: by polling {@code getJobExecution}. */
final class Executions {

    private static final Set<BatchStatus> ENDED = EnumSet.of(BatchStatus.COMPLETED, BatchStatus.FAILED,
            BatchStatus.STOPPED, BatchStatus.ABANDONED);

    private Executions() {
    }

    static JobOperator operator() {
        return BatchRuntime.getJobOperator();
    }

    static Properties properties(String... nameValues) {
        Properties properties = new Properties();
        for (int i = 0; i < nameValues.length; i += 2) {
            properties.setProperty(nameValues[i], nameValues[i + 1]);
        }
        return properties;
    }

    /** The execution once it has ended. */
    static JobExecution ended(long executionId) {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline) {
            JobExecution execution = operator().getJobExecution(executionId);
            if (ENDED.contains(execution.getBatchStatus())) {
                return execution;
            }
            sleep();
        }
        return fail("execution " + executionId + " has not ended after 60 s");
    }

    /** Starts the job and waits for its end. */
    static JobExecution run(String job, Properties properties) {
        return ended(operator().start(job, properties));
    }

    static List<String> stepNames(long executionId) {
        return operator().getStepExecutions(executionId).stream().map(StepExecution::getStepName).toList();
    }

    static StepExecution step(long executionId, String name) {
        return operator().getStepExecutions(executionId).stream().filter(step -> step.getStepName().equals(name))
                .findFirst().orElseThrow(() -> new AssertionError("execution " + executionId + " ran no step " + name));
    }

    static void sleep() {
        try {
            Thread.sleep(20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
