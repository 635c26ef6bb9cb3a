package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.deployment.test.kernel.KernelTestSupport.call;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.freshRun;
import static io.durablebatch.job.Steps.chunk;
import static io.durablebatch.job.Steps.tasklet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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

import io.durablebatch.context.StepContext;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.item.ItemReader;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.job.Tasklet;
import io.durablebatch.operator.JobOperator;
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

    /** Records its call; exits PAUSE on the first call of a run, COMPLETED after. */
    static Tasklet pausingOnce(String step) {
        return context -> {
            String run = context.parameters().string("run");
            boolean first = !ran(run).contains(step);
            RAN.add(run + ":" + step);
            context.setExitStatus(ExitStatus.of(first ? "PAUSE" : "COMPLETED"));
            return RepeatStatus.FINISHED;
        };
    }

    /** Per run: the checkpoint each call of "resuming" found, as text ("none" without one). */
    static final Map<String, Queue<String>> FOUND = new ConcurrentHashMap<>();
    /** Per run: what saving a checkpoint in a chunk step's reader factory did. */
    static final Map<String, String> CHUNK_SAVE = new ConcurrentHashMap<>();

    /** Counts its calls in its checkpoint; fails after saving it while its run is FAILING. */
    static Tasklet resuming() {
        return context -> {
            String run = context.parameters().string("run");
            int calls = context.checkpoint().map(c -> Integer.parseInt(new String(c.bytes(), StandardCharsets.UTF_8)))
                    .orElse(0);
            FOUND.computeIfAbsent(run, r -> new ConcurrentLinkedQueue<>())
                    .add(context.checkpoint().isPresent() ? String.valueOf(calls) : "none");
            context.saveCheckpoint(Checkpoint.of(String.valueOf(calls + 1).getBytes(StandardCharsets.UTF_8)));
            if (FAILING.contains(run)) {
                throw new IllegalStateException("resuming fails for " + run);
            }
            return calls + 1 < 3 ? RepeatStatus.CONTINUABLE : RepeatStatus.FINISHED;
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

        /** Stops on its own exit code, to run again on restart (it allows a start if complete). */
        @Produces
        JobDefinition pausingAtItself() {
            return Job.named("pausingAtItself")
                    .start(tasklet("check", pausingOnce("check")).withAllowStartIfComplete(true))
                    .on("PAUSE").stopAndRestart("check")
                    .from("check").on("*").to(tasklet("after", recording("after")))
                    .build();
        }

        /** Stops after the second step, to run both again on restart. */
        @Produces
        JobDefinition pausingBeforeItself() {
            return Job.named("pausingBeforeItself")
                    .start(tasklet("first", recording("first")).withAllowStartIfComplete(true))
                    .next(tasklet("second", pausingOnce("second")).withAllowStartIfComplete(true))
                    .on("PAUSE").stopAndRestart("first", "PAUSED")
                    .from("second").on("*").end()
                    .build();
        }

        /** Stops without a restart position: a restart begins at the start. */
        @Produces
        JobDefinition pausingToTheStart() {
            return Job.named("pausingToTheStart")
                    .start(tasklet("first", recording("first")))
                    .next(tasklet("second", pausingOnce("second")).withAllowStartIfComplete(true))
                    .on("PAUSE").stop("PAUSED")
                    .from("second").on("*").end()
                    .build();
        }

        /** Stops at itself, but does not allow a start if complete: its recorded exit code stops it again. */
        @Produces
        JobDefinition pausingForGood() {
            return Job.named("pausingForGood")
                    .start(tasklet("check", pausingOnce("check")))
                    .on("PAUSE").stopAndRestart("check")
                    .from("check").on("*").end()
                    .build();
        }

        @Produces
        JobDefinition resumingTasklet() {
            return Job.named("resumingTasklet").start(tasklet("resuming", resuming())).build();
        }

        @Produces
        JobDefinition chunkSavingACheckpoint() {
            return Job.named("chunkSavingACheckpoint").start(chunk("read", 10).<String> reader(context -> {
                try {
                    context.saveCheckpoint(Checkpoint.of(new byte[1]));
                    CHUNK_SAVE.put(context.parameters().string("run"), "accepted");
                } catch (IllegalStateException e) {
                    CHUNK_SAVE.put(context.parameters().string("run"), "refused: " + e.getMessage());
                }
                return new ItemReader<String>() {
                    @Override
                    public void open(Optional<Checkpoint> checkpoint) {
                    }

                    @Override
                    public String read() {
                        return null;
                    }

                    @Override
                    public Checkpoint checkpoint() {
                        return Checkpoint.of(new byte[0]);
                    }
                };
            }).writer(context -> items -> {
            }).build()).build();
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

    private JobExecution restart(JobExecution stopped) {
        return operator.await(operator.restart(stopped.id(), call()), Duration.ofMinutes(1));
    }

    @Test
    void aTaskletsCheckpointIsRecordedWithEachCallAndWithItsFailureAndResumedOnRestart() {
        String run = freshRun();
        FAILING.add(run);
        JobExecution failed = operator.runAndWait("resumingTasklet", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.FAILED, failed.status());
        StepExecution failedStep = steps(failed).get(0);
        assertEquals("1", new String(failedStep.checkpoint().orElseThrow().bytes(), StandardCharsets.UTF_8),
                "saved before the call threw: recorded with the failure, though the call's work rolled back");
        FAILING.remove(run);
        JobExecution restarted = restart(failed);
        assertEquals(ExecutionStatus.COMPLETED, restarted.status());
        assertEquals(List.of("none", "1", "2"), List.copyOf(FOUND.get(run)),
                "the restart resumes it; each committed call records it for the next");
        assertEquals("3", new String(steps(restarted).get(0).checkpoint().orElseThrow().bytes(), StandardCharsets.UTF_8));
    }

    @Test
    void aChunkStepCannotSaveATaskletCheckpoint() {
        String run = freshRun();
        operator.runAndWait("chunkSavingACheckpoint", KernelTestSupport.run(run), call());
        assertEquals("refused: step 'read' is not a tasklet step: a chunk step's checkpoint is its reader's and "
                + "writer's, saved at each chunk's commit", CHUNK_SAVE.get(run));
    }

    @Test
    void aStopMayRestartAtTheStoppingNodeItself() {
        String run = freshRun();
        JobExecution stopped = operator.runAndWait("pausingAtItself", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.STOPPED, stopped.status());
        JobExecution restarted = restart(stopped);
        assertEquals(ExecutionStatus.COMPLETED, restarted.status());
        assertEquals(List.of("check", "check", "after"), ran(run), "the restart began at the stopping node");
    }

    @Test
    void aStopMayRestartAtANodeBeforeTheStoppingOne() {
        String run = freshRun();
        JobExecution stopped = operator.runAndWait("pausingBeforeItself", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.STOPPED, stopped.status());
        assertEquals("PAUSED", stopped.exitStatus().code());
        JobExecution restarted = restart(stopped);
        assertEquals(ExecutionStatus.COMPLETED, restarted.status());
        assertEquals(List.of("first", "second", "first", "second"), ran(run));
    }

    @Test
    void aStopWithoutARestartPositionRestartsAtTheStartSkippingCompletedNodes() {
        String run = freshRun();
        JobExecution stopped = operator.runAndWait("pausingToTheStart", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.STOPPED, stopped.status());
        assertEquals("PAUSED", stopped.exitStatus().code());
        JobExecution restarted = restart(stopped);
        assertEquals(ExecutionStatus.COMPLETED, restarted.status());
        assertEquals(List.of("first", "second", "second"), ran(run), "first completed: its outcome is reused");
    }

    @Test
    void aRestartReachingAStopOnAReusedExitCodeStopsAgain() {
        String run = freshRun();
        JobExecution stopped = operator.runAndWait("pausingForGood", KernelTestSupport.run(run), call());
        JobExecution restarted = restart(stopped);
        assertEquals(ExecutionStatus.STOPPED, restarted.status(), "check completed with PAUSE, which stops the job");
        assertEquals(List.of("check"), ran(run), "check does not allow a start if complete: it ran once");
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
