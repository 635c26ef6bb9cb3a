package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.call;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.freshRun;
import static io.durablebatch.job.Steps.tasklet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.context.StepContext;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.job.Tasklet;
import io.durablebatch.listener.JobEndListener;
import io.durablebatch.listener.JobEnding;
import io.durablebatch.listener.JobEvent;
import io.durablebatch.listener.JobListener;
import io.durablebatch.listener.StepEvent;
import io.durablebatch.listener.StepListener;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.repository.spi.KernelRepository;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The exit status a job's own code sets ({@link io.durablebatch.context.JobContext#setExitStatus}) is the
 * one its end records, in the end's transaction: the last one set, by a step, a listener or the end
 * transition taken, else the flow's. A listener's {@code afterJob}, which runs once the end committed,
 * reads it back from the repository in a transaction of its own: no reader ever sees the end without it.
 */
class JobExitStatusTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, KernelTestSupport.class, Jobs.class,
                    ReadsTheEnd.class));

    /** Per run: the exit status afterJob read from the repository, and what setting it there did. */
    static final Map<String, String> READ_AFTER_END = new ConcurrentHashMap<>();
    static final Map<String, String> SET_AFTER_END = new ConcurrentHashMap<>();

    @Inject
    JobOperator operator;

    @Inject
    KernelRepository repository;

    /** Sets the job's exit status to the run's "job" parameter (if given), then does what "then" says. */
    static Tasklet setting() {
        return context -> {
            JobParameters parameters = context.parameters();
            if (parameters.get("job").isPresent()) {
                context.job().setExitStatus(ExitStatus.of(parameters.string("job")));
            }
            if (parameters.get("clear").isPresent()) {
                context.job().clearExitStatus();
            }
            String then = parameters.get("then").isPresent() ? parameters.string("then") : "";
            if (then.equals("throw")) {
                throw new IllegalStateException("the step fails after setting the job's exit status");
            }
            if (!then.isEmpty()) {
                context.setExitStatus(ExitStatus.of(then));
            }
            return RepeatStatus.FINISHED;
        };
    }

    /** Reads the execution back from the repository once its end committed, and tries to set the exit status then. */
    @Singleton
    static class ReadsTheEnd implements JobListener {
        @Inject
        KernelRepository repository;

        @Override
        public boolean appliesTo(JobName job) {
            return job.value().startsWith("exit-");
        }

        @Override
        public void afterJob(JobEvent job) {
            String run = job.parameters().string("run");
            READ_AFTER_END.put(run, QuarkusTransaction.requiringNew()
                    .call(() -> repository.getJobExecution(job.execution().id()).orElseThrow().exitStatus().code()));
            try {
                job.context().setExitStatus(ExitStatus.of("TOO LATE"));
                SET_AFTER_END.put(run, "accepted");
            } catch (IllegalStateException e) {
                SET_AFTER_END.put(run, "refused: " + e.getMessage());
            }
        }
    }

    /** Appends " + end listener" to the exit status set so far; throws when the run's "listener" parameter says so. */
    static final class Appending implements JobEndListener {
        @Override
        public void beforeJobEnd(JobEnding ending) {
            String set = ending.context().exitStatus().map(ExitStatus::code).orElse("(none: " + ending.status() + ")");
            ending.context().setExitStatus(ExitStatus.of(set + " + end listener"));
            if (ending.parameters().get("listener").isPresent()) {
                throw new IllegalStateException("the end listener fails");
            }
        }
    }

    /** Sets the job's exit status in afterStep, after the step's completion committed. */
    static final class AfterStepSetting implements StepListener {
        @Override
        public void afterStep(StepEvent step) {
            StepContext context = step.context();
            context.job().setExitStatus(ExitStatus.of("set in afterStep of " + context.stepName().value()));
        }
    }

    static class Jobs {
        @Produces
        JobDefinition oneStep() {
            return Job.named("exit-one-step").start(tasklet("only", setting())).build();
        }

        @Produces
        JobDefinition declared() {
            return Job.named("exit-declared").start(tasklet("first", setting()))
                    .on("END").end("TEST ENDED")
                    .on("FAIL").fail("TEST FAILED")
                    .on("STOP").stopAndRestart(tasklet("second", setting()), "TEST STOPPED")
                    .from("first").on("*").to("second")
                    .build();
        }

        /** A step exits with the longest code, branched on; the next one sets it as the job's. */
        @Produces
        JobDefinition longest() {
            return Job.named("exit-longest").start(tasklet("first", context -> {
                context.setExitStatus(ExitStatus.of(LONGEST));
                return RepeatStatus.FINISHED;
            })).on(LONGEST).to(tasklet("second", context -> {
                context.job().setExitStatus(ExitStatus.of(LONGEST));
                return RepeatStatus.FINISHED;
            })).build();
        }

        @Produces
        JobDefinition endListened() {
            return Job.named("exit-end-listened").listener(new Appending()).start(tasklet("first", setting()))
                    .on("END").end("TEST ENDED")
                    .from("first").on("*").end()
                    .build();
        }

        @Produces
        JobDefinition stepListened() {
            return Job.named("exit-step-listened")
                    .start(tasklet("only", setting()).listener(new AfterStepSetting())).build();
        }
    }

    /** The longest exit code there is, with white space inside, as Jakarta Batch's are free text. */
    static final String LONGEST = ("LONG EXIT " + "x y".repeat(ExitStatus.MAX_CODE_LENGTH)).substring(0,
            ExitStatus.MAX_CODE_LENGTH);

    private JobExecution run(String job, String run, Map<String, String> more) {
        JobParameters parameters = JobParameters.of("run", run);
        for (Map.Entry<String, String> entry : more.entrySet()) {
            parameters = parameters.with(entry.getKey(), entry.getValue());
        }
        return operator.runAndWait(job, parameters, call());
    }

    private StepExecution onlyStep(JobExecution execution) {
        return tx(() -> repository.stepExecutions(execution.id())).get(0);
    }

    @Test
    void aStepSetsTheExitStatusTheJobsEndRecords() {
        String run = freshRun();
        JobExecution ended = run("exit-one-step", run, Map.of("job", "VERY GOOD INVOCATION"));
        assertEquals(ExecutionStatus.COMPLETED, ended.status());
        assertEquals("VERY GOOD INVOCATION", ended.exitStatus().code());
        assertEquals("VERY GOOD INVOCATION", READ_AFTER_END.get(run), "committed with the end, before afterJob");
        assertEquals("COMPLETED", onlyStep(ended).exitStatus().code(), "the step keeps its own");
        assertTrue(SET_AFTER_END.get(run).startsWith("refused: the end of job execution "), SET_AFTER_END.get(run));
    }

    @Test
    void exitCodesOfTwoThousandCharactersAreStoredWhole() {
        JobExecution ended = run("exit-longest", freshRun(), Map.of());
        assertEquals(ExecutionStatus.COMPLETED, ended.status());
        assertEquals(LONGEST, ended.exitStatus().code(), "the job execution's column keeps it whole");
        JobExecution stored = tx(() -> repository.getJobExecution(ended.id()).orElseThrow());
        assertEquals(LONGEST, stored.exitStatus().code());
        assertEquals(LONGEST, tx(() -> repository.stepExecutions(ended.id())).get(0).exitStatus().code(),
                "so does the step execution's");
        assertEquals(LONGEST, tx(() -> repository.flowDecisions(ended.id())).get(0).outcome().code(),
                "and the route decision's, which the route was taken on");
        assertThrows(IllegalArgumentException.class, () -> ExitStatus.of(LONGEST + "x"), "one more is refused");
    }

    @Test
    void withoutASettingTheFlowsExitStatusStands() {
        String run = freshRun();
        JobExecution ended = run("exit-one-step", run, Map.of("then", "ALL DONE"));
        assertEquals("ALL DONE", ended.exitStatus().code(), "a node without transitions ends with its own");
        assertEquals("ALL DONE", READ_AFTER_END.get(run));
    }

    @Test
    void aClearedExitStatusLeavesTheFlowsOwn() {
        String run = freshRun();
        JobExecution ended = run("exit-one-step", run, Map.of("job", "SET", "clear", "yes", "then", "ALL DONE"));
        assertEquals("ALL DONE", ended.exitStatus().code());
        assertEquals("ALL DONE", READ_AFTER_END.get(run));
    }

    @Test
    void aFailedJobRecordsTheExitStatusSetBeforeTheFailure() {
        String run = freshRun();
        JobExecution ended = run("exit-one-step", run, Map.of("job", "FAIL: ids don't match", "then", "throw"));
        assertEquals(ExecutionStatus.FAILED, ended.status());
        assertEquals("FAIL: ids don't match", ended.exitStatus().code());
        assertEquals("FAIL: ids don't match", READ_AFTER_END.get(run));
        assertEquals("FAILED", onlyStep(ended).exitStatus().code());
    }

    @Test
    void anEndTransitionsExitStatusIsSetLastOverWhatTheStepSet() {
        String ended = freshRun();
        JobExecution end = run("exit-declared", ended, Map.of("job", "EARLY", "then", "END"));
        assertEquals(ExecutionStatus.COMPLETED, end.status());
        assertEquals("TEST ENDED", end.exitStatus().code());
        assertEquals("TEST ENDED", READ_AFTER_END.get(ended));

        JobExecution failed = run("exit-declared", freshRun(), Map.of("job", "EARLY", "then", "FAIL"));
        assertEquals(ExecutionStatus.FAILED, failed.status());
        assertEquals("TEST FAILED", failed.exitStatus().code());

        JobExecution stopped = run("exit-declared", freshRun(), Map.of("then", "STOP"));
        assertEquals(ExecutionStatus.STOPPED, stopped.status());
        assertEquals("TEST STOPPED", stopped.exitStatus().code());
    }

    @Test
    void aSettingReplacesTheExitStatusOfTheNodeThatEndsTheJob() {
        JobExecution next = run("exit-declared", freshRun(), Map.of("job", "ON TO SECOND", "then", "GO"));
        assertEquals(ExecutionStatus.COMPLETED, next.status());
        assertEquals("ON TO SECOND", next.exitStatus().code(), "not GO, the exit status of the second step");
    }

    @Test
    void aJobEndListenerSetsTheExitStatusLastAndItsEndHasATransactionOfItsOwn() {
        String run = freshRun();
        JobExecution ended = run("exit-end-listened", run, Map.of("then", "END"));
        assertEquals(ExecutionStatus.COMPLETED, ended.status());
        assertEquals("TEST ENDED + end listener", ended.exitStatus().code(), "it sees the declared one, and wins");
        assertEquals("TEST ENDED + end listener", READ_AFTER_END.get(run));

        String undeclared = freshRun();
        assertEquals("(none: COMPLETED) + end listener",
                run("exit-end-listened", undeclared, Map.of()).exitStatus().code());
        assertEquals("(none: COMPLETED) + end listener", READ_AFTER_END.get(undeclared));
    }

    @Test
    void aJobEndListenerThatThrowsFailsTheJobWithTheExitStatusSet() {
        String run = freshRun();
        JobExecution ended = run("exit-end-listened", run, Map.of("then", "END", "listener", "throw"));
        assertEquals(ExecutionStatus.FAILED, ended.status());
        assertEquals("TEST ENDED + end listener", ended.exitStatus().code());
        assertEquals(Optional.of("the end listener fails"), ended.failure().map(f -> f.message()));
    }

    @Test
    void anAfterStepOfTheLastStepStillSetsTheExitStatus() {
        // the end does not commit with the step's completion: afterStep runs after that commit
        String run = freshRun();
        JobExecution ended = run("exit-step-listened", run, Map.of("job", "set by the tasklet"));
        assertEquals("set in afterStep of only", ended.exitStatus().code());
        assertEquals("set in afterStep of only", READ_AFTER_END.get(run));
    }

    @Test
    void onlyAnEndOfTheJobHasAnExitStatus() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> new io.durablebatch.job.Transition("a", io.durablebatch.job.ExitCodePattern.of("*"),
                        io.durablebatch.job.TransitionKind.NEXT, Optional.of("b"), Optional.of(ExitStatus.of("X"))));
        assertTrue(refused.getMessage().startsWith("transition.exitStatus must be empty for a NEXT transition"),
                refused.getMessage());
        JobDefinition declared = Job.named("shape").start(tasklet("a", setting())).on("*").end("ALL GOOD").build();
        assertTrue(declared.plan().canonicalText().contains("transition a * end exit \"ALL GOOD\"\n"),
                declared.plan().canonicalText());
        JobDefinition plain = Job.named("shape").start(tasklet("a", setting())).on("*").end().build();
        assertTrue(plain.plan().canonicalText().contains("transition a * end\n"), plain.plan().canonicalText());
    }
}
