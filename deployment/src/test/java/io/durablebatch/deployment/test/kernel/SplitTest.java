package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.deployment.test.kernel.KernelTestSupport.call;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.freshRun;
import static io.durablebatch.job.Steps.decision;
import static io.durablebatch.job.Steps.flow;
import static io.durablebatch.job.Steps.split;
import static io.durablebatch.job.Steps.tasklet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.PlanFingerprint;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.JobDefinitionException;
import io.durablebatch.job.ParameterizedValue;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.job.Tasklet;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.repository.spi.KernelRepository;
import io.quarkus.test.QuarkusUnitTest;

/** Splits: flows run in parallel on threads of their own and are joined; failure, stop and restart per flow. */
class SplitTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, KernelTestSupport.class, Jobs.class));

    static final Queue<String> RAN = new ConcurrentLinkedQueue<>();
    static final Map<String, String> THREADS = new ConcurrentHashMap<>();
    static final Set<String> FAILING = ConcurrentHashMap.newKeySet();
    /** Each run's barrier: both flows' first steps must be inside it at once, on two threads. */
    static final Map<String, CyclicBarrier> BARRIERS = new ConcurrentHashMap<>();

    static Tasklet recording(String step) {
        return context -> {
            String run = context.parameters().string("run");
            THREADS.put(run + ":" + step, Thread.currentThread().getName());
            if (FAILING.contains(run + ":" + step)) {
                RAN.add(run + ":" + step);
                throw new IllegalStateException(step + " fails for " + run);
            }
            CyclicBarrier barrier = BARRIERS.get(run);
            if (barrier != null && step.endsWith("1")) {
                barrier.await(30, TimeUnit.SECONDS);
            }
            RAN.add(run + ":" + step);
            return RepeatStatus.FINISHED;
        };
    }

    static List<String> ran(String run) {
        return RAN.stream().filter(entry -> entry.startsWith(run + ":")).map(entry -> entry.substring(run.length() + 1))
                .toList();
    }

    static JobDefinition twoFlows(String name) {
        return Job.named(name)
                .start(split("both",
                        flow(tasklet("a1", recording("a1"))).next(tasklet("a2", recording("a2"))).build(),
                        flow(tasklet("b1", recording("b1"))).build()))
                .next(tasklet("after", recording("after")))
                .build();
    }

    @Singleton
    static class Jobs {
        @Produces
        JobDefinition parallel() {
            return twoFlows("splitParallel");
        }

        @Produces
        JobDefinition decided() {
            return Job.named("splitDecided")
                    .start(split("both",
                            flow(tasklet("a1", recording("a1"))).next(tasklet("a2", recording("a2"))).build(),
                            flow(tasklet("b1", recording("b1"))).build()))
                    .next(decision("look", context -> {
                        RAN.add(context.parameters().string("run") + ":look(" + context.previousNodeId().orElseThrow()
                                + "=" + context.previousExitStatus().orElseThrow().code() + ": "
                                + String.join(",", context.lastStepExecutions().stream()
                                        .map(step -> step.stepName().value()).toList())
                                + "; last " + context.lastStepExecution().orElseThrow().stepName().value() + ")");
                        return "SEEN";
                    }))
                    .on("SEEN").end()
                    .build();
        }

        /** Flow a goes on to a2 or a3, as the run's parameter {@code next} says. */
        @Produces
        JobDefinition routed() {
            return Job.named("splitRouted")
                    .start(split("both",
                            flow(tasklet("a1", recording("a1"))).on("COMPLETED").to(ParameterizedValue.parameter("next"))
                                    .from(tasklet("a2", recording("a2"))).from(tasklet("a3", recording("a3"))).build(),
                            flow(tasklet("b1", recording("b1"))).build()))
                    .build();
        }

        /** Both flows run until stopped. */
        @Produces
        JobDefinition endless() {
            Tasklet spinning = context -> {
                RAN.add(context.parameters().string("run") + ":spin-" + context.stepName().value());
                Thread.sleep(20);
                return RepeatStatus.CONTINUABLE;
            };
            return Job.named("endlessSplit")
                    .start(split("both", flow(tasklet("x", spinning)).build(), flow(tasklet("y", spinning)).build()))
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
    void flowsRunAtOnceOnThreadsOfTheirOwnAndTheNextNodeRunsWhenAllEnded() {
        String run = freshRun();
        BARRIERS.put(run, new CyclicBarrier(2));
        JobExecution execution = operator.runAndWait("splitParallel", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.COMPLETED, execution.status(), () -> execution.failure().toString());
        // a1 and b1 each waited at the barrier for the other: they ran at the same time
        assertNotEquals(THREADS.get(run + ":a1"), THREADS.get(run + ":b1"));
        assertEquals(THREADS.get(run + ":a1"), THREADS.get(run + ":a2"), "a flow runs on one thread");
        List<String> ran = ran(run);
        assertEquals(4, ran.size(), ran::toString);
        assertEquals("after", ran.get(3), "the node after the split runs once every flow ended: " + ran);
        assertTrue(ran.indexOf("a1") < ran.indexOf("a2"), ran::toString);
        assertEquals(Set.of(ExecutionStatus.COMPLETED), Set.copyOf(steps(execution).stream()
                .map(StepExecution::status).toList()));
    }

    @Test
    void aFailedFlowFailsTheJobOnceTheOthersEndedAndARestartRerunsOnlyWhatDidNotComplete() {
        String run = freshRun();
        FAILING.add(run + ":a2");
        JobExecution failed = operator.runAndWait("splitParallel", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.FAILED, failed.status());
        assertEquals(Set.of("a1", "a2", "b1"), Set.copyOf(ran(run)), "the other flow ran to its end; 'after' did not run");
        assertEquals(ExecutionStatus.COMPLETED, step(failed, "b1").status());
        assertEquals(ExecutionStatus.FAILED, step(failed, "a2").status());

        FAILING.remove(run + ":a2");
        RAN.clear();
        JobExecution restarted = operator.await(operator.restart(failed.id(), call()), Duration.ofMinutes(1));
        assertEquals(ExecutionStatus.COMPLETED, restarted.status(), () -> restarted.failure().toString());
        assertEquals(List.of("a2", "after"), ran(run), "a1 and b1 completed before: their outcomes are reused");
    }

    @Test
    void aDecisionAfterASplitSeesTheLastStepOfEveryFlow() {
        String run = freshRun();
        JobExecution execution = operator.runAndWait("splitDecided", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.COMPLETED, execution.status(), () -> execution.failure().toString());
        assertTrue(ran(run).contains("look(both=COMPLETED: a2,b1; last b1)"), ran(run)::toString);
    }

    @Test
    void aFlowRoutesByItsExecutionsParametersAndATargetOutsideTheFlowFailsTheExecutionBeforeAnyStep() {
        String run = freshRun();
        JobExecution toA3 = operator.runAndWait("splitRouted", JobParameters.of(Map.of("run", run, "next", "a3")), call());
        assertEquals(ExecutionStatus.COMPLETED, toA3.status(), () -> toA3.failure().toString());
        assertEquals(Set.of("a1", "a3", "b1"), Set.copyOf(ran(run)));

        String leaking = freshRun();
        JobExecution refused = operator.runAndWait("splitRouted", JobParameters.of(Map.of("run", leaking, "next", "b1")),
                call());
        assertEquals(ExecutionStatus.FAILED, refused.status());
        assertEquals("io.durablebatch.PlanNotResolved", refused.failure().orElseThrow().type());
        assertTrue(refused.failure().orElseThrow().message().contains("transitions stay inside their flow"),
                refused.failure().orElseThrow()::message);
        assertEquals(List.of(), ran(leaking), "no step ran");
    }

    @Test
    void aStopRequestReachesEveryFlow() throws InterruptedException {
        String run = freshRun();
        JobExecutionId id = operator.start("endlessSplit", KernelTestSupport.run(run), call());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!(ran(run).contains("spin-x") && ran(run).contains("spin-y")) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        operator.stop(id, call());
        JobExecution stopped = operator.await(id, Duration.ofMinutes(1));
        assertEquals(ExecutionStatus.STOPPED, stopped.status());
        List<StepExecution> steps = steps(stopped);
        assertEquals(2, steps.size());
        steps.forEach(step -> assertEquals(ExecutionStatus.STOPPED, step.status(), step.stepName().value()));
    }

    @Test
    void aTransitionStaysInsideItsFlow() {
        JobDefinitionException refused = assertThrows(JobDefinitionException.class, () -> Job.named("leaking")
                .start(split("both",
                        flow(tasklet("a1", recording("a1"))).on("COMPLETED").to("b1").build(),
                        flow(tasklet("b1", recording("b1"))).build()))
                .build());
        assertTrue(refused.getMessage().contains("transitions stay inside their flow"), refused.getMessage());
    }

    @Test
    void aStopInsideAFlowHasNoRestartPositionOfItsOwnAndASplitHasFlows() {
        JobDefinitionException refused = assertThrows(JobDefinitionException.class, () -> Job.named("restarting")
                .start(split("both",
                        flow(tasklet("a1", recording("a1"))).next(tasklet("a2", recording("a2"))).build(),
                        flow(tasklet("b1", recording("b1"))).build()))
                .from("a2").on("HALT").stopAndRestart("a1")
                .build());
        assertTrue(refused.getMessage().contains("a stop inside flow 1 of split 'both' names a restart position"),
                refused.getMessage());
        IllegalArgumentException empty = assertThrows(IllegalArgumentException.class, () -> split("none"));
        assertEquals("split 'none' needs at least one flow", empty.getMessage());
    }

    @Test
    void theFlowsArePartOfThePlanAndAPlanWithoutSplitsKeepsItsCanonicalText() {
        String plan = twoFlows("planned").plan().canonicalText();
        assertTrue(plan.contains("node both split startLimit=0 allowStartIfComplete=false\n"), plan);
        assertTrue(plan.contains("flow both 0 start a1\nflow both 1 start b1\n"), plan);
        JobDefinition swapped = Job.named("planned")
                .start(split("both",
                        flow(tasklet("b1", recording("b1"))).build(),
                        flow(tasklet("a1", recording("a1"))).next(tasklet("a2", recording("a2"))).build()))
                .next(tasklet("after", recording("after")))
                .build();
        assertNotEquals(twoFlows("planned").identity().fingerprint(), swapped.identity().fingerprint());

        JobDefinition plain = Job.named("plain").start(tasklet("one", recording("one")))
                .next(tasklet("two", recording("two"))).build();
        assertEquals("""
                durable-batch-plan 2
                job plain
                start one
                node one tasklet startLimit=0 allowStartIfComplete=false
                node two tasklet startLimit=0 allowStartIfComplete=false
                transition one COMPLETED next two
                """, plain.plan().canonicalText());
        assertEquals(PlanFingerprint.ofHex("4e7859ceed5a2832ce4e40d03d1231e82693e5828c5ebd7e84dfa90ace723b24"),
                plain.plan().fingerprint(), "the SHA-256 of the text, as before splits");
    }

    @Test
    void aSplitInAFlowIsDeclaredOnceWithItsTransitions() {
        JobDefinition nested = Job.named("nested")
                .start(split("outer",
                        flow(tasklet("a", recording("a")))
                                .next(split("inner",
                                        flow(tasklet("c", recording("c"))).on("*").end().build(),
                                        flow(tasklet("d", recording("d"))).build()))
                                .next(tasklet("b", recording("b")))
                                .build(),
                        flow(tasklet("e", recording("e"))).build()))
                .build();
        assertEquals(List.of("outer", "a", "inner", "c", "d", "b", "e"), List.copyOf(nested.nodes().keySet()));
        assertEquals(1, nested.transitionsFrom("c").size(), "declared once, however deep the split is");
        String plan = nested.plan().canonicalText();
        assertTrue(plan.contains("flow inner 0 start c\nflow inner 1 start d\nflow outer 0 start a\nflow outer 1 start e\n"),
                plan);
    }

    StepExecution step(JobExecution execution, String name) {
        return steps(execution).stream().filter(step -> step.stepName().value().equals(name)).findFirst().orElseThrow();
    }
}
