package io.durablebatch.test;

import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.opentest4j.AssertionFailedError;

import io.durablebatch.execution.ExecutionFailure;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.StepExecution;

/**
 * A job execution as it ended, with its step executions, and assertions on them. Each assertion
 * returns this run, so they chain; a failed one describes the whole run (status, exit status,
 * failure, each step with its counters).
 *
 * <pre>
 * tester.launch("auditOrders", JobParameters.of("day", "2026-11-30"))
 *         .assertCompleted()
 *         .assertStep("audit", step -&gt; step.assertReadCount(1200).assertWriteCount(1200).assertCommitCount(3));
 * </pre>
 */
public final class JobRun {

    private final JobExecution execution;
    private final List<StepExecution> steps;

    JobRun(JobExecution execution, List<StepExecution> steps) {
        this.execution = execution;
        this.steps = List.copyOf(steps);
    }

    /** The execution's id: what {@link JobTester#restart(JobExecutionId)} restarts. */
    public JobExecutionId id() {
        return execution.id();
    }

    /** The job execution as it ended. */
    public JobExecution execution() {
        return execution;
    }

    /** Every step execution of this job execution, in creation order (a partitioned step's workers included). */
    public List<StepExecution> stepExecutions() {
        return steps;
    }

    /**
     * The one step execution of this name in this job execution. A partitioned step's execution
     * carries the sum of its partitions' counters; its workers are step executions named after the
     * worker step, found with {@link #steps}.
     *
     * @throws AssertionFailedError if the step did not run in this execution, or ran as several step executions
     */
    public StepRun step(String stepName) {
        List<StepRun> named = steps(stepName);
        if (named.size() != 1) {
            throw failure("expected one step execution named '" + stepName + "', found " + named.size());
        }
        return named.get(0);
    }

    /** The step executions of this name in this job execution, in creation order: a worker step's, one per worker attempt. */
    public List<StepRun> steps(String stepName) {
        return steps.stream().filter(step -> step.stepName().value().equals(stepName))
                .map(step -> new StepRun(this, step)).toList();
    }

    /** Runs {@code assertions} on {@link #step step(stepName)}. */
    public JobRun assertStep(String stepName, Consumer<StepRun> assertions) {
        assertions.accept(step(stepName));
        return this;
    }

    /** Asserts the execution's status. */
    public JobRun assertStatus(ExecutionStatus expected) {
        return check("status", expected, execution.status());
    }

    /** Asserts that the execution COMPLETED (status and exit code). */
    public JobRun assertCompleted() {
        return assertStatus(ExecutionStatus.COMPLETED).assertExitCode("COMPLETED");
    }

    /** Asserts that the execution FAILED (status and exit code). */
    public JobRun assertFailed() {
        return assertStatus(ExecutionStatus.FAILED).assertExitCode("FAILED");
    }

    /** Asserts that the execution STOPPED (status). */
    public JobRun assertStopped() {
        return assertStatus(ExecutionStatus.STOPPED);
    }

    /** Asserts the code of the execution's exit status. */
    public JobRun assertExitCode(String expected) {
        return check("exit code", expected, execution.exitStatus().code());
    }

    /**
     * Asserts that the execution or one of its step executions recorded a failure whose type or
     * message contains {@code text}. A step's failure counts, as the job's may only sum its steps' up
     * (a partitioned step's: "1 of 4 partitions FAILED").
     */
    public JobRun assertFailureContains(String text) {
        boolean contains = Stream.concat(execution.failure().stream(), steps.stream().flatMap(step -> step.failure().stream()))
                .anyMatch(failure -> says(failure, text));
        if (!contains) {
            throw failure("expected a failure that says '" + text + "'");
        }
        return this;
    }

    static boolean says(ExecutionFailure failure, String text) {
        return failure.type().contains(text) || failure.message().contains(text);
    }

    /** Asserts the attempt number of the execution: 1 for a first launch, 2 for its first restart. */
    public JobRun assertAttempt(int expected) {
        return check("attempt", expected, execution.attempt());
    }

    private JobRun check(String what, Object expected, Object actual) {
        if (!Objects.equals(expected, actual)) {
            throw new AssertionFailedError(what + " expected: <" + expected + "> but was: <" + actual + "> in "
                    + describe(), expected, actual);
        }
        return this;
    }

    AssertionFailedError failure(String message) {
        return new AssertionFailedError(message + ": " + describe());
    }

    /** The run in a few lines: what a failed assertion prints. */
    String describe() {
        return "job execution " + execution.id() + " (attempt " + execution.attempt() + ") " + execution.status()
                + ", exit " + execution.exitStatus().code()
                + execution.failure().map(failure -> ", failure " + failure.type() + ": " + failure.message()).orElse("")
                + steps.stream().map(step -> "\n  step '" + step.stepName() + "' " + step.status() + ", exit "
                        + step.exitStatus().code() + ", " + step.counters()
                        + step.failure().map(failure -> ", failure " + failure.type() + ": " + failure.message())
                                .orElse(""))
                        .collect(Collectors.joining());
    }

    @Override
    public String toString() {
        return describe();
    }
}
