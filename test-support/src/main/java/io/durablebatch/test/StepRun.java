package io.durablebatch.test;

import java.util.Objects;
import java.util.function.ToLongFunction;

import org.opentest4j.AssertionFailedError;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecution;

/**
 * One step execution of a {@link JobRun}, and assertions on its status and counters. Each assertion
 * returns this step, so they chain; {@link #and()} goes back to the run. A failed one describes the
 * whole run.
 */
public final class StepRun {

    private final JobRun run;
    private final StepExecution execution;

    StepRun(JobRun run, StepExecution execution) {
        this.run = run;
        this.execution = execution;
    }

    /** The step execution as it ended. */
    public StepExecution execution() {
        return execution;
    }

    /** Its counters: items read, written, filtered, skipped, and chunks committed and rolled back. */
    public StepCounters counters() {
        return execution.counters();
    }

    /** The run this step execution belongs to, for more assertions. */
    public JobRun and() {
        return run;
    }

    /** Asserts the step execution's status. */
    public StepRun assertStatus(ExecutionStatus expected) {
        return check("status", expected, execution.status());
    }

    /** Asserts that the step COMPLETED. */
    public StepRun assertCompleted() {
        return assertStatus(ExecutionStatus.COMPLETED);
    }

    /** Asserts the code of the step's exit status (what the flow's transitions match). */
    public StepRun assertExitCode(String expected) {
        return check("exit code", expected, execution.exitStatus().code());
    }

    /** Asserts that the step execution recorded a failure whose type or message contains {@code text}. */
    public StepRun assertFailureContains(String text) {
        if (execution.failure().filter(failure -> JobRun.says(failure, text)).isEmpty()) {
            throw new AssertionFailedError("step '" + execution.stepName() + "' (step execution " + execution.id()
                    + ") recorded no failure that says '" + text + "' in " + run.describe());
        }
        return this;
    }

    /** Asserts every counter at once. */
    public StepRun assertCounters(StepCounters expected) {
        return check("counters", expected, execution.counters());
    }

    /** Asserts the number of items read. */
    public StepRun assertReadCount(long expected) {
        return counter("readCount", StepCounters::readCount, expected);
    }

    /** Asserts the number of items written. */
    public StepRun assertWriteCount(long expected) {
        return counter("writeCount", StepCounters::writeCount, expected);
    }

    /** Asserts the number of items the processor filtered out (returned {@code null} for). */
    public StepRun assertFilterCount(long expected) {
        return counter("filterCount", StepCounters::filterCount, expected);
    }

    /** Asserts the number of skips, in reading, processing and writing together. */
    public StepRun assertSkipCount(long expected) {
        return counter("skipCount", StepCounters::skipCount, expected);
    }

    /** Asserts the number of items skipped because reading them failed. */
    public StepRun assertReadSkipCount(long expected) {
        return counter("readSkipCount", StepCounters::readSkipCount, expected);
    }

    /** Asserts the number of items skipped because processing them failed. */
    public StepRun assertProcessSkipCount(long expected) {
        return counter("processSkipCount", StepCounters::processSkipCount, expected);
    }

    /** Asserts the number of items skipped because the writer refused them. */
    public StepRun assertWriteSkipCount(long expected) {
        return counter("writeSkipCount", StepCounters::writeSkipCount, expected);
    }

    /** Asserts the number of committed chunks (or tasklet calls). */
    public StepRun assertCommitCount(long expected) {
        return counter("commitCount", StepCounters::commitCount, expected);
    }

    /** Asserts the number of rolled-back transactions: retried, scanned and failed chunks. */
    public StepRun assertRollbackCount(long expected) {
        return counter("rollbackCount", StepCounters::rollbackCount, expected);
    }

    private StepRun counter(String name, ToLongFunction<StepCounters> counter, long expected) {
        return check(name, expected, counter.applyAsLong(execution.counters()));
    }

    private StepRun check(String what, Object expected, Object actual) {
        if (!Objects.equals(expected, actual)) {
            throw new AssertionFailedError(what + " of step '" + execution.stepName() + "' (step execution "
                    + execution.id() + ") expected: <" + expected + "> but was: <" + actual + "> in " + run.describe(),
                    expected, actual);
        }
        return this;
    }
}
