package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.deployment.test.kernel.KernelTestSupport.call;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.freshRun;
import static io.durablebatch.job.Steps.tasklet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.JobOperator;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.job.StepContext;
import io.durablebatch.job.Tasklet;
import io.durablebatch.repository.spi.KernelRepository;
import io.quarkus.test.QuarkusUnitTest;

/** Tasklet steps and flows: conditional routes, end/fail/stop transitions, restarts that skip completed steps. */
class TaskletAndFlowTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, KernelTestSupport.class, Jobs.class));

    /** "run:step" for every tasklet call that ran. */
    static final Queue<String> RAN = new ConcurrentLinkedQueue<>();
    /** Runs whose step "work" fails. */
    static final Set<String> FAILING = ConcurrentHashMap.newKeySet();
    static final Map<String, AtomicInteger> CALLS = new ConcurrentHashMap<>();

    static Tasklet recording(String step) {
        return context -> {
            String run = context.parameters().string("run");
            RAN.add(run + ":" + step);
            if (step.equals("work") && FAILING.contains(run)) {
                throw new IllegalStateException("work fails for " + run);
            }
            return RepeatStatus.FINISHED;
        };
    }

    static List<String> ran(String run) {
        return RAN.stream().filter(entry -> entry.startsWith(run + ":")).map(entry -> entry.substring(run.length() + 1))
                .toList();
    }

    @Singleton
    static class Jobs {
        @Produces
        JobDefinition repeating() {
            return Job.named("repeating").start(tasklet("count", (StepContext context) -> {
                int call = CALLS.computeIfAbsent(context.parameters().string("run"), run -> new AtomicInteger())
                        .incrementAndGet();
                if (call < 4) {
                    return RepeatStatus.CONTINUABLE;
                }
                context.setExitStatus(new ExitStatus("COUNTED", "after " + call + " calls"));
                return RepeatStatus.FINISHED;
            })).build();
        }

        @Produces
        JobDefinition routing() {
            return Job.named("routing")
                    .start(tasklet("inspect", context -> {
                        RAN.add(context.parameters().string("run") + ":inspect");
                        context.setExitStatus(ExitStatus.of(context.parameters().string("route")));
                        return RepeatStatus.FINISHED;
                    }))
                    .on("EMPTY").to(tasklet("report", recording("report")))
                    .from("inspect").on("FULL*").to(tasklet("work", recording("work")))
                    .on("FAILED").to(tasklet("cleanup", recording("cleanup")))
                    .from("work").on("COMPLETED").to("report")
                    .from("inspect").on("*").fail()
                    .build();
        }

        @Produces
        JobDefinition twoSteps() {
            return Job.named("twoSteps")
                    .start(tasklet("prepare", recording("prepare")))
                    .next(tasklet("work", recording("work")))
                    .build();
        }

        @Produces
        JobDefinition twoStepsRerunningPrepare() {
            return Job.named("twoStepsRerunningPrepare")
                    .start(tasklet("prepare", recording("prepare")).withAllowStartIfComplete(true))
                    .next(tasklet("work", recording("work")))
                    .build();
        }

        @Produces
        JobDefinition pausing() {
            return Job.named("pausing")
                    .start(tasklet("first", recording("first")))
                    .on("COMPLETED").stopAndRestart(tasklet("second", recording("second")))
                    .build();
        }
    }

    @Inject
    JobOperator operator;

    @Inject
    KernelRepository repository;

    List<StepExecution> steps(JobExecution execution) {
        return RepositoryTestSupport.tx(() -> repository.stepExecutions(execution.id()));
    }

    @Test
    void aTaskletIsCalledUntilFinishedOneTransactionPerCall() {
        String run = freshRun();
        JobExecution execution = operator.runAndWait("repeating", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.COMPLETED, execution.status());
        StepExecution step = steps(execution).get(0);
        assertEquals(4, step.counters().commitCount());
        assertEquals(new ExitStatus("COUNTED", "after 4 calls"), step.exitStatus());
        assertEquals("COUNTED", execution.exitStatus().code(), "a job ending at a node without transitions takes its exit");
    }

    @Test
    void theExitCodePicksTheMostSpecificTransition() {
        String empty = freshRun();
        assertEquals(ExecutionStatus.COMPLETED, operator.runAndWait("routing",
                KernelTestSupport.run(empty).with("route", "EMPTY"), call()).status());
        assertEquals(List.of("inspect", "report"), ran(empty));

        String full = freshRun();
        assertEquals(ExecutionStatus.COMPLETED, operator.runAndWait("routing",
                KernelTestSupport.run(full).with("route", "FULL_LOAD"), call()).status());
        assertEquals(List.of("inspect", "work", "report"), ran(full));
    }

    @Test
    void aFailTransitionFailsTheJob() {
        String run = freshRun();
        JobExecution execution = operator.runAndWait("routing", KernelTestSupport.run(run).with("route", "BOGUS"), call());
        assertEquals(ExecutionStatus.FAILED, execution.status());
        assertEquals("node 'inspect' exited BOGUS, which the flow fails on (pattern *)",
                execution.failure().orElseThrow().message());
    }

    @Test
    void aFailedStepFollowsATransitionOnFailed() {
        String run = freshRun();
        FAILING.add(run);
        JobExecution execution = operator.runAndWait("routing", KernelTestSupport.run(run).with("route", "FULL"), call());
        assertEquals(List.of("inspect", "work", "cleanup"), ran(run));
        assertEquals(ExecutionStatus.COMPLETED, execution.status());
        assertEquals(ExecutionStatus.FAILED, steps(execution).get(1).status());
    }

    @Test
    void aRestartDoesNotRunCompletedStepsAgain() {
        String run = freshRun();
        FAILING.add(run);
        JobExecution failed = operator.runAndWait("twoSteps", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.FAILED, failed.status());
        assertTrue(failed.failure().orElseThrow().message().contains("work fails for"), failed.failure()::toString);
        FAILING.remove(run);
        JobExecution restarted = operator.await(operator.restart(failed.id(), call()), Duration.ofMinutes(1));
        assertEquals(ExecutionStatus.COMPLETED, restarted.status());
        assertEquals(List.of("prepare", "work", "work"), ran(run));
        assertEquals(List.of("work"), steps(restarted).stream().map(s -> s.stepName().value()).toList());
    }

    @Test
    void allowStartIfCompleteRunsACompletedStepAgain() {
        String run = freshRun();
        FAILING.add(run);
        JobExecution failed = operator.runAndWait("twoStepsRerunningPrepare", KernelTestSupport.run(run), call());
        FAILING.remove(run);
        JobExecution restarted = operator.await(operator.restart(failed.id(), call()), Duration.ofMinutes(1));
        assertEquals(ExecutionStatus.COMPLETED, restarted.status());
        assertEquals(List.of("prepare", "work", "prepare", "work"), ran(run));
    }

    @Test
    void aStopTransitionStopsTheJobAndTheRestartContinuesAtItsTarget() {
        String run = freshRun();
        JobExecution stopped = operator.runAndWait("pausing", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.STOPPED, stopped.status());
        assertEquals(List.of("first"), ran(run));
        JobExecution restarted = operator.await(operator.restart(stopped.id(), call()), Duration.ofMinutes(1));
        assertEquals(ExecutionStatus.COMPLETED, restarted.status());
        assertEquals(List.of("first", "second"), ran(run));
    }
}
