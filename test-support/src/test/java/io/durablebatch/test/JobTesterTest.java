package io.durablebatch.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.repository.JobRepository;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;

/** {@link JobTester} on real jobs ({@link NumbersJobs}) and a real repository. */
@QuarkusTest
class JobTesterTest {

    @Inject
    JobTester tester;

    @Inject
    JobRepository repository;

    @Inject
    TestDatabase database;

    String run;

    @BeforeEach
    void reset() {
        tester.resetRepository();
        tester.clearFailures();
        run = UUID.randomUUID().toString();
    }

    private JobParameters numbers(long count) {
        return JobParameters.of(Map.of("run", run, "count", count));
    }

    @Test
    void launchWaitsForTheEndAndShowsTheStepCounters() {
        JobRun launched = tester.launch("numbers", numbers(25));

        launched.assertCompleted().assertAttempt(1)
                .step("load").assertCompleted().assertExitCode("COMPLETED").assertReadCount(25).assertWriteCount(25)
                .assertFilterCount(0).assertSkipCount(0).assertCommitCount(3).assertRollbackCount(0);
        assertEquals(25, database.numbers(run));
    }

    @Test
    void aWrongExpectationFailsAndDescribesTheRun() {
        JobRun launched = tester.launch("numbers", numbers(25));

        AssertionFailedError counter = assertThrows(AssertionFailedError.class,
                () -> launched.step("load").assertWriteCount(24));
        assertTrue(counter.getMessage().contains("writeCount of step 'load'"), counter.getMessage());
        assertTrue(counter.getMessage().contains("expected: <24> but was: <25>"), counter.getMessage());
        assertTrue(counter.getMessage().contains("step 'load' COMPLETED"), counter.getMessage());
        assertEquals(24L, counter.getExpected().getValue());
        assertEquals(25L, counter.getActual().getValue());
        assertThrows(AssertionFailedError.class, launched::assertFailed);
        assertThrows(AssertionFailedError.class, () -> launched.assertExitCode("FAILED"));
        assertThrows(AssertionFailedError.class, () -> launched.assertFailureContains("anything"));
        assertThrows(AssertionFailedError.class, () -> launched.step("no such step"));
    }

    @Test
    void skipsAreCountedWhereTheyHappen() {
        tester.launch("numbers", numbers(25).with("skipEvery", 5L))
                .assertCompleted()
                .assertStep("load", step -> step.assertReadCount(25).assertProcessSkipCount(5).assertSkipCount(5)
                        .assertReadSkipCount(0).assertWriteSkipCount(0).assertWriteCount(20));
        assertEquals(20, database.numbers(run));
    }

    @Test
    void aFailureAtAChunkRollsItBackAndTheRestartWritesEveryNumberOnce() {
        InjectedFailure failure = tester.failAt("numbers", "load", 2, new IllegalStateException("injected at chunk 2"));

        JobRun failed = tester.launch("numbers", numbers(25));

        failure.assertFired();
        failed.assertFailed().assertFailureContains("injected at chunk 2")
                .step("load").assertStatus(ExecutionStatus.FAILED).assertCommitCount(1).assertWriteCount(10)
                .assertRollbackCount(1);
        assertEquals(10, database.numbers(run), "chunk 2's rows rolled back");

        tester.restart(failed).assertCompleted().assertAttempt(2)
                .step("load").assertReadCount(15).assertWriteCount(15).assertCommitCount(2);
        assertEquals(25, database.numbers(run));
        assertEquals(25, database.count("SELECT count(*) FROM junit_numbers WHERE run = ?", run), "each number once");
    }

    @Test
    void aTransientFailureAtAChunkIsRetried() {
        InjectedFailure failure = tester.failAt("numbers", "load", 2,
                new SQLException("injected serialization failure", "40001"));

        tester.launch("numbers", numbers(25)).assertCompleted()
                .step("load").assertWriteCount(25).assertCommitCount(3).assertRollbackCount(1);
        failure.assertFired();
        assertEquals(25, database.numbers(run));
    }

    @Test
    void aSkippableFailureAtAChunkFailsOnlyOnceSoTheChunkCommitsWhole() {
        InjectedFailure failure = tester.failAt("numbers", "load", 1, new NumbersJobs.UnwantedNumber(0));

        tester.launch("numbers", numbers(25)).assertCompleted()
                .step("load").assertWriteCount(25).assertSkipCount(0).assertRollbackCount(1);
        failure.assertFired();
    }

    @Test
    void aFailureFiresOnlyAtItsChunkAndNotOnceCleared() {
        InjectedFailure beyondTheEnd = tester.failAt("numbers", "load", 4, new IllegalStateException("chunk 4"));
        tester.launch("numbers", numbers(25)).assertCompleted();
        assertFalse(beyondTheEnd.fired(), "25 numbers make 3 chunks");
        assertThrows(AssertionFailedError.class, beyondTheEnd::assertFired);

        InjectedFailure cleared = tester.failAt("numbers", "load", 1, new IllegalStateException("cleared"));
        tester.clearFailures();
        run = UUID.randomUUID().toString();
        tester.launch("numbers", numbers(25)).assertCompleted();
        assertFalse(cleared.fired());
    }

    @Test
    void aFailureIsArmedOnlyForAChunkStepOfADefinedJob() {
        assertThrows(IllegalArgumentException.class,
                () -> tester.failAt("prepareAndLoad", "prepare", 1, new IllegalStateException()));
        assertThrows(IllegalArgumentException.class,
                () -> tester.failAt("noSuchJob", "load", 1, new IllegalStateException()));
        assertThrows(IllegalArgumentException.class,
                () -> tester.failAt("numbers", "load", 0, new IllegalStateException()));
    }

    @Test
    void launchStepRunsThatStepAloneAsAJobOfItsOwn() {
        JobRun alone = tester.launchStep("prepareAndLoad", "load", numbers(25));

        alone.assertCompleted().step("load").assertWriteCount(25);
        List<String> steps = alone.stepExecutions().stream().map(step -> step.stepName().value()).toList();
        assertEquals(List.of("load"), steps, "prepare did not run");
        assertEquals(0, database.count("SELECT count(*) FROM junit_prepared WHERE run = ?", run));
        String jobName = QuarkusTransaction.requiringNew().call(
                () -> repository.getJobInstance(alone.execution().jobInstanceId()).orElseThrow().jobName().value());
        assertEquals(JobTester.stepJobName("prepareAndLoad", "load"), jobName);
        assertThrows(IllegalArgumentException.class, () -> tester.launchStep("prepareAndLoad", "nope", numbers(1)));
    }

    @Test
    void aStepRunAloneFailsAtItsInjectedChunkAndRestarts() {
        tester.failAt("prepareAndLoad", "load", 3, new IllegalStateException("injected at chunk 3"));

        JobRun failed = tester.launchStep("prepareAndLoad", "load", numbers(25)).assertFailed();
        failed.step("load").assertWriteCount(20);

        tester.restart(failed).assertCompleted().step("load").assertWriteCount(5);
        assertEquals(25, database.numbers(run));
    }

    @Test
    void resetDeletesEveryExecutionSoTheSameInstanceRunsAgain() {
        JobExecutionId first = tester.launch("numbers", numbers(5)).assertCompleted().id();

        tester.resetRepository();

        assertTrue(QuarkusTransaction.requiringNew().call(() -> repository.getJobExecution(first)).isEmpty());
        assertEquals(0, database.count("SELECT count(*) FROM dbatch_job_instance"));
        assertEquals(0, database.count("SELECT count(*) FROM dbatch_operator_request"));
        database.count("WITH deleted AS (DELETE FROM junit_numbers WHERE run = ? RETURNING 1) SELECT count(*) FROM deleted",
                run);
        // without the reset: refused with INSTANCE_COMPLETE
        tester.launch("numbers", numbers(5)).assertCompleted().assertAttempt(1);
    }

    @Test
    void resetKeepsTheUpgradesTheJobsDeclare() {
        // the reset of @BeforeEach emptied the table, then registered the edge again
        assertEquals(1, database.count("SELECT count(*) FROM dbatch_definition_upgrade WHERE job_name = 'upgraded'"));
    }

    @Test
    void resetIsRefusedWhileAnExecutionRunsHere() {
        NumbersJobs.release = new CountDownLatch(1);
        JobExecutionId running = tester.start("blocking", JobParameters.of("run", run));
        try {
            IllegalStateException refused = assertThrows(IllegalStateException.class, tester::resetRepository);
            assertTrue(refused.getMessage().contains(running.toString()), refused.getMessage());
        } finally {
            NumbersJobs.release.countDown();
        }
        JobRun ended = tester.await(running).assertCompleted();
        List<StepExecution> steps = ended.stepExecutions();
        assertEquals(1, steps.size());
    }
}
