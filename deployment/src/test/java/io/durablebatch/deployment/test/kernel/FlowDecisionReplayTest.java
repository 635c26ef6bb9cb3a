package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.deployment.test.kernel.KernelTestSupport.call;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.freshRun;
import static io.durablebatch.job.Steps.decision;
import static io.durablebatch.job.Steps.tasklet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

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
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.job.Tasklet;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.repository.flow.FlowDecision;
import io.durablebatch.repository.flow.FlowTransitionKind;
import io.durablebatch.repository.flow.NodeId;
import io.durablebatch.repository.spi.KernelRepository;
import io.quarkus.test.QuarkusUnitTest;

/** Flow decisions recorded before their target, replayed on restart (or asked again); start limits per node. */
class FlowDecisionReplayTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, KernelTestSupport.class, Jobs.class));

    static final Queue<String> RAN = new ConcurrentLinkedQueue<>();
    /** What the decider says for each run, read when it is asked. */
    static final Map<String, String> CHOICE = new ConcurrentHashMap<>();
    static final Set<String> FAILING = ConcurrentHashMap.newKeySet();

    static Tasklet recording(String step) {
        return context -> {
            String run = context.parameters().string("run");
            RAN.add(run + ":" + step);
            if (FAILING.contains(run + ":" + step)) {
                throw new IllegalStateException(step + " fails for " + run);
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
        JobDefinition routed() {
            return Job.named("routed")
                    .start(tasklet("measure", recording("measure")))
                    .next(decision("size", context -> {
                        String run = context.parameters().string("run");
                        RAN.add(run + ":decide(" + context.previousNodeId().orElseThrow() + "="
                                + context.previousExitStatus().orElseThrow().code() + ")");
                        return CHOICE.get(run);
                    }))
                    .on("BIG").to(tasklet("bigPath", recording("bigPath")))
                    .from("size").on("SMALL").to(tasklet("smallPath", recording("smallPath")))
                    .from("size").on("NONE").end()
                    .build();
        }

        /** As {@code routed}, with its decision asked again on restart; a stop route is replayed all the same. */
        @Produces
        JobDefinition reasked() {
            return Job.named("reasked")
                    .start(tasklet("measure", recording("measure")))
                    .next(decision("size", context -> {
                        String run = context.parameters().string("run");
                        StepExecution last = context.lastStepExecution().orElseThrow();
                        RAN.add(run + ":decide(" + last.stepName().value() + "#" + last.jobExecutionId().value() + ")");
                        String choice = CHOICE.get(run);
                        context.job().setExitStatus(ExitStatus.of("DECIDED_" + choice));
                        return choice;
                    }).askedAgainOnRestart())
                    .on("BIG").to(tasklet("bigPath", recording("bigPath")))
                    .from("size").on("SMALL").to(tasklet("smallPath", recording("smallPath")))
                    .from("size").on("HALT").stopAndRestart(tasklet("resumed", recording("resumed")))
                    .build();
        }

        /** Two decisions in a row: the second sees the first as the node it came from, and the step before both. */
        @Produces
        JobDefinition chained() {
            return Job.named("chained")
                    .start(tasklet("measure", recording("measure")))
                    .next(decision("first", context -> "ON"))
                    .on("ON").to(decision("second", context -> {
                        RAN.add(context.parameters().string("run") + ":second(" + context.previousNodeId().orElseThrow()
                                + "=" + context.previousExitStatus().orElseThrow().code() + ", last step "
                                + context.lastStepExecution().orElseThrow().stepName().value() + ")");
                        return "DONE";
                    }))
                    .on("DONE").end()
                    .build();
        }

        @Produces
        JobDefinition limited() {
            return Job.named("limited").start(tasklet("flaky", recording("flaky")).withStartLimit(2)).build();
        }
    }

    @Inject
    JobOperator operator;

    @Inject
    KernelRepository repository;

    List<FlowDecision> decisions(JobExecution execution) {
        return RepositoryTestSupport.tx(() -> repository.flowDecisions(execution.id()));
    }

    JobExecution restart(JobExecution execution) {
        return operator.await(operator.restart(execution.id(), call()), Duration.ofMinutes(1));
    }

    @Test
    void decisionsAreRecordedBeforeTheirTargetsInSequence() {
        String run = freshRun();
        CHOICE.put(run, "SMALL");
        JobExecution execution = operator.runAndWait("routed", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.COMPLETED, execution.status());
        List<FlowDecision> decisions = decisions(execution);
        assertEquals(List.of(1, 2, 3), decisions.stream().map(FlowDecision::sequence).toList());
        assertEquals(List.of(FlowTransitionKind.NEXT, FlowTransitionKind.DECISION, FlowTransitionKind.END),
                decisions.stream().map(FlowDecision::kind).toList());
        assertEquals(List.of(Optional.of(NodeId.of("size")), Optional.of(NodeId.of("smallPath")), Optional.empty()),
                decisions.stream().map(FlowDecision::toNode).toList());
        assertEquals("SMALL", decisions.get(1).outcome().code());
        assertEquals(List.of("measure", "decide(measure=COMPLETED)", "smallPath"), ran(run));
    }

    @Test
    void aRestartReplaysTheDecidersRouteEvenIfItWouldNowChooseOtherwise() {
        String run = freshRun();
        CHOICE.put(run, "BIG");
        FAILING.add(run + ":bigPath");
        JobExecution failed = operator.runAndWait("routed", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.FAILED, failed.status());

        CHOICE.put(run, "SMALL"); // the decider would now go the other way
        FAILING.remove(run + ":bigPath");
        JobExecution restarted = restart(failed);
        assertEquals(ExecutionStatus.COMPLETED, restarted.status());
        assertEquals(List.of("measure", "decide(measure=COMPLETED)", "bigPath", "bigPath"), ran(run),
                "measure was reused, the decider was not asked again, the big path ran again");
        FlowDecision replayed = decisions(restarted).stream().filter(d -> d.fromNode().equals(NodeId.of("size")))
                .findFirst().orElseThrow();
        assertEquals(Optional.of(NodeId.of("bigPath")), replayed.toNode());
        assertEquals("BIG", replayed.outcome().code());
        assertEquals(List.of("bigPath"), RepositoryTestSupport.tx(() -> repository.stepExecutions(restarted.id()))
                .stream().map(step -> step.stepName().value()).toList());
    }

    @Test
    void aDecisionAskedAgainOnRestartTakesTheDecidersNewRoute() {
        String run = freshRun();
        CHOICE.put(run, "BIG");
        FAILING.add(run + ":bigPath");
        JobExecution failed = operator.runAndWait("reasked", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.FAILED, failed.status());

        CHOICE.put(run, "SMALL");
        JobExecution restarted = restart(failed);
        assertEquals(ExecutionStatus.COMPLETED, restarted.status());
        String decidedOnFirst = "decide(measure#" + failed.id().value() + ")";
        assertEquals(List.of("measure", decidedOnFirst, "bigPath", decidedOnFirst, "smallPath"), ran(run),
                "measure was reused and its step execution handed to the decider again, which now chose SMALL");
        assertEquals("DECIDED_SMALL", restarted.exitStatus().code(), "the decider set the job's exit status");
        FlowDecision decided = decisions(restarted).stream().filter(d -> d.fromNode().equals(NodeId.of("size")))
                .findFirst().orElseThrow();
        assertEquals(Optional.of(NodeId.of("smallPath")), decided.toNode());
    }

    @Test
    void aDecisionAskedAgainOnRestartStillReplaysTheStopItTook() {
        String run = freshRun();
        CHOICE.put(run, "HALT");
        JobExecution stopped = operator.runAndWait("reasked", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.STOPPED, stopped.status());

        CHOICE.put(run, "BIG");
        JobExecution restarted = restart(stopped);
        assertEquals(ExecutionStatus.COMPLETED, restarted.status());
        assertEquals(List.of("measure", "decide(measure#" + stopped.id().value() + ")", "resumed"), ran(run),
                "the restart continued at the stop's target without asking the decider");
    }

    @Test
    void aDecisionAfterADecisionGetsTheLastStepBeforeBoth() {
        String run = freshRun();
        JobExecution execution = operator.runAndWait("chained", KernelTestSupport.run(run), call());
        assertEquals(ExecutionStatus.COMPLETED, execution.status());
        assertEquals(List.of("measure", "second(first=ON, last step measure)"), ran(run));
    }

    @Test
    void aDecisionAskedAgainOnRestartIsANodeKindOfItsOwn() {
        JobDefinition replaying = Job.named("kinds").start(tasklet("a", recording("a")))
                .next(decision("d", context -> "X")).on("X").end().build();
        JobDefinition askingAgain = Job.named("kinds").start(tasklet("a", recording("a")))
                .next(decision("d", context -> "X").askedAgainOnRestart()).on("X").end().build();
        assertTrue(replaying.plan().canonicalText().contains("node d decision "), replaying.plan()::canonicalText);
        assertTrue(askingAgain.plan().canonicalText().contains("node d decision-asked-again "),
                askingAgain.plan()::canonicalText);
        assertNotEquals(replaying.plan().fingerprint(), askingAgain.plan().fingerprint());
    }

    @Test
    void aStartLimitCountsStartsAcrossExecutions() {
        String run = freshRun();
        FAILING.add(run + ":flaky");
        JobExecution first = operator.runAndWait("limited", KernelTestSupport.run(run), call());
        JobExecution second = restart(first);
        assertEquals(ExecutionStatus.FAILED, second.status());
        JobExecution third = restart(second);
        assertEquals(ExecutionStatus.FAILED, third.status());
        assertTrue(third.failure().orElseThrow().message().contains("START_LIMIT_EXCEEDED"), third.failure()::toString);
        List<StepExecution> thirdSteps = RepositoryTestSupport.tx(() -> repository.stepExecutions(third.id()));
        assertEquals(List.of(), thirdSteps, "the third start was refused: no step attempt");
        assertEquals(List.of("flaky", "flaky"), ran(run));
    }
}
