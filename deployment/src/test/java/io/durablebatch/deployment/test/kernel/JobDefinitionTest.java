package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.job.Steps.chunk;
import static io.durablebatch.job.Steps.decision;
import static io.durablebatch.job.Steps.tasklet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.item.ItemReader;
import io.durablebatch.job.ChunkStep;
import io.durablebatch.job.ExitCodePattern;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.JobDefinitionException;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.job.TaskletStep;
import io.durablebatch.job.Transition;
import io.durablebatch.job.TransitionKind;

/** Job definitions: the flow rules checked at build, the canonical plan and its fingerprint. */
class JobDefinitionTest {

    static TaskletStep step(String name) {
        return tasklet(name, context -> RepeatStatus.FINISHED);
    }

    static ChunkStep<String, String> chunkStep(String name, int commitInterval) {
        return chunk(name, commitInterval).<String> reader(context -> new ItemReader<String>() {
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
        }).writer(context -> items -> {
        }).build();
    }

    @Test
    void duplicateNodeIdsFailNamingJobAndNode() {
        JobDefinitionException e = assertThrows(JobDefinitionException.class, () -> Job.named("dup").start(step("a"))
                .next(step("b").withId("a")).build());
        assertEquals("job 'dup', node 'a': the node id is declared by two different nodes", e.getMessage());
        assertEquals(Optional.of("a"), e.nodeId());
        assertEquals("Load-orders", step("Load orders").id());
    }

    @Test
    void duplicateStepNamesFail() {
        JobDefinitionException e = assertThrows(JobDefinitionException.class, () -> Job.named("names").start(step("a"))
                .next(step("a").withId("a2")).build());
        assertEquals("job 'names', node 'a2': step name 'a' is already used by node 'a'", e.getMessage());
    }

    @Test
    void unknownTargetsFailNamingTheMissingNode() {
        JobDefinitionException e = assertThrows(JobDefinitionException.class, () -> Job.named("unknown")
                .start(step("a")).on("RETRY").to("nowhere").build());
        assertEquals("job 'unknown', node 'nowhere': the flow refers to this node id, but no node declares it",
                e.getMessage());
        assertThrows(JobDefinitionException.class, () -> Job.named("unknown2").start(step("a"))
                .on("*").stopAndRestart("ghost").build());
        assertThrows(JobDefinitionException.class, () -> Job.named("unknown3").start(step("a"))
                .from("ghost").on("*").end().build());
    }

    @Test
    void unreachableNodesFail() {
        JobDefinitionException e = assertThrows(JobDefinitionException.class, () -> Job.named("island")
                .start(step("a")).from(step("b")).on("*").end().build());
        assertEquals("job 'island', node 'b': the node is unreachable from the start node 'a'", e.getMessage());
    }

    @Test
    void aFlowWithNoEndFails() {
        JobDefinitionException e = assertThrows(JobDefinitionException.class, () -> Job.named("undecided")
                .start(step("a")).next(decision("route", context -> "ANY")).build());
        assertEquals("job 'undecided', node 'route': the flow has no end from this node: a decision needs transitions "
                + "to a node or to end, fail or stop", e.getMessage());
    }

    @Test
    void loopsFailBecauseANodeRunsAtMostOncePerExecution() {
        TaskletStep a = step("a");
        TaskletStep b = step("b");
        JobDefinitionException e = assertThrows(JobDefinitionException.class, () -> Job.named("loop")
                .start(a).on("*").to(b).on("RETRY").to("a").from("b").on("*").end().build());
        assertTrue(e.getMessage().startsWith("job 'loop', node 'a': the flow loops back to this node"), e.getMessage());
        assertThrows(JobDefinitionException.class, () -> Job.named("selfLoop").start(step("a")).on("RETRY").to("a")
                .from("a").on("*").end().build());
    }

    @Test
    void aStopMayRestartAtAnEarlierNode() {
        JobDefinition job = Job.named("pauseAndRedo").start(step("a")).next(step("b"))
                .on("REDO").stopAndRestart("a").from("b").on("*").end().build();
        assertEquals(TransitionKind.STOP, job.route("b", "REDO").orElseThrow().kind());
        JobDefinition self = Job.named("pauseHere").start(step("a")).on("WAIT").stopAndRestart("a")
                .from("a").on("*").end().build();
        assertEquals(Optional.of("a"), self.route("a", "WAIT").flatMap(Transition::to), "a stop may restart at itself");
        JobDefinition toStart = Job.named("pause").start(step("a")).on("WAIT").stop("WAITING").from("a").on("*").end()
                .build();
        assertEquals(Optional.empty(), toStart.route("a", "WAIT").flatMap(Transition::to),
                "a stop without a restart position restarts at the start");
        assertThrows(IllegalArgumentException.class, () -> new Transition("a", ExitCodePattern.of("*"),
                TransitionKind.END, Optional.of("a")), "only a NEXT or a STOP names a node");
        assertThrows(IllegalArgumentException.class, () -> new Transition("a", ExitCodePattern.of("*"),
                TransitionKind.NEXT, Optional.empty()), "a NEXT needs its target");
    }

    @Test
    void nextIsOnCompletedAndTransitionsRunMostSpecificFirst() {
        JobDefinition job = Job.named("routes").start(step("a"))
                .on("*").fail()
                .on("C*").to(step("c"))
                .from("a").on("COMPLETED").to(step("b"))
                .from("a").on("C?MPLETED").end()
                .build();
        assertEquals(List.of("COMPLETED", "C?MPLETED", "C*", "*"),
                job.transitionsFrom("a").stream().map(t -> t.on().value()).toList());
        assertEquals(Optional.of("b"), job.route("a", "COMPLETED").flatMap(Transition::to));
        assertEquals(TransitionKind.END, job.route("a", "CXMPLETED").orElseThrow().kind());
        assertEquals(Optional.of("c"), job.route("a", "CUSTOM").flatMap(Transition::to));
        assertEquals(TransitionKind.FAIL, job.route("a", "FAILED").orElseThrow().kind());
        assertTrue(job.route("b", "COMPLETED").isEmpty(), "a node without transitions ends with its own outcome");
    }

    @Test
    void inDeclarationOrderTheFirstMatchingTransitionIsTaken() {
        JobDefinition job = Job.named("routes").transitionsInDeclarationOrder().start(step("a"))
                .on("C*").to(step("c"))
                .from("a").on("COMPLETED").to(step("b"))
                .from("a").on("*").fail()
                .build();
        assertEquals(List.of("C*", "COMPLETED", "*"), job.transitionsFrom("a").stream().map(t -> t.on().value()).toList());
        assertEquals(Optional.of("c"), job.route("a", "COMPLETED").flatMap(Transition::to),
                "C* is declared first and matches, although COMPLETED is more specific");
        assertEquals(TransitionKind.FAIL, job.route("a", "FAILED").orElseThrow().kind());
        JobDefinition specific = Job.named("routes").start(step("a"))
                .on("C*").to(step("c"))
                .from("a").on("COMPLETED").to(step("b"))
                .from("a").on("*").fail()
                .build();
        assertEquals(Optional.of("b"), specific.route("a", "COMPLETED").flatMap(Transition::to));
        assertNotEquals(specific.plan().fingerprint(), job.plan().fingerprint(),
                "the plan records the evaluation order, so the two routings have different fingerprints");
        JobDefinition alreadySpecificFirst = Job.named("routes").transitionsInDeclarationOrder().start(step("a"))
                .on("COMPLETED").to(step("b"))
                .from("a").on("C*").to(step("c"))
                .from("a").on("*").fail()
                .build();
        assertEquals(specific.plan().canonicalText(), alreadySpecificFirst.plan().canonicalText(),
                "declared in the order the most specific rule evaluates, it routes alike and is the same plan");
    }

    @Test
    void patternsMatchLikeSpringBatch() {
        assertTrue(ExitCodePattern.of("*").matches("ANY"));
        assertTrue(ExitCodePattern.of("*").matches("A"));
        assertTrue(ExitCodePattern.of("COMP*").matches("COMPLETED"));
        assertTrue(ExitCodePattern.of("COMP*").matches("COMP"));
        assertTrue(ExitCodePattern.of("*ED").matches("FAILED"));
        assertTrue(ExitCodePattern.of("F?ILED").matches("FAILED"));
        assertFalse(ExitCodePattern.of("F?ILED").matches("FILED"));
        assertFalse(ExitCodePattern.of("COMPLETED").matches("COMPLETED_WITH_SKIPS"));
        assertTrue(ExitCodePattern.of("COMPLETED*").matches("COMPLETED_WITH_SKIPS"));
        assertTrue(ExitCodePattern.of("A*B*C").matches("AxxBxxBxC"));
    }

    @Test
    void patternsAreFreeTextAsExitCodesAre() {
        assertTrue(ExitCodePattern.of("VERY GOOD INVOCATION").matches("VERY GOOD INVOCATION"));
        assertFalse(ExitCodePattern.of("VERY GOOD INVOCATION").matches("VERY GOOD"));
        assertTrue(ExitCodePattern.of("DECIDER_EXIT_STATUS*VERY GOOD INVOCATION")
                .matches("DECIDER_EXIT_STATUS_2 VERY GOOD INVOCATION"));
        assertTrue(ExitCodePattern.of("FAIL: ?").matches("FAIL: x"));
        assertThrows(IllegalArgumentException.class, () -> ExitCodePattern.of("a\u0007b"), "control character");
        assertThrows(IllegalArgumentException.class, () -> ExitCodePattern.of("a\nb"), "line break");
        assertThrows(IllegalArgumentException.class, () -> ExitCodePattern.of("x".repeat(ExitStatus.MAX_CODE_LENGTH + 1)),
                "too long");
        assertThrows(IllegalArgumentException.class, () -> ExitCodePattern.of("   "), "blank");
        assertThrows(IllegalArgumentException.class, () -> ExitCodePattern.of(""), "empty");
        assertEquals(ExitStatus.MAX_CODE_LENGTH, ExitCodePattern.of("x".repeat(ExitStatus.MAX_CODE_LENGTH)).value().length());
    }

    @Test
    void aPatternWithSpacesCannotMakeTwoPlansOneCanonicalText() {
        // a pattern with a space is quoted: a line "transition a X end end" would not say where the pattern ends
        JobDefinition spaced = Job.named("shape").start(step("a")).on("X end").end().build();
        JobDefinition plain = Job.named("shape").start(step("a")).on("X").end().build();
        assertTrue(spaced.plan().canonicalText().contains("transition a \"X end\" end\n"),
                spaced.plan().canonicalText());
        assertTrue(plain.plan().canonicalText().contains("transition a X end\n"), plain.plan().canonicalText());
        JobDefinition quoted = Job.named("shape").start(step("a")).on("say \"hi\\\"").end().build();
        assertTrue(quoted.plan().canonicalText().contains("transition a \"say \\\"hi\\\\\\\"\" end\n"),
                quoted.plan().canonicalText());
        assertNotEquals(spaced.identity().fingerprint(), plain.identity().fingerprint());
    }

    @Test
    void theFingerprintIgnoresDeclarationOrderNamesAndChunkSizes() {
        JobDefinition first = Job.named("shape").start(chunkStep("load", 100)).next(step("report")).build();
        JobDefinition renamed = Job.named("shape").start(chunkStep("Load orders", 500).withId("load"))
                .next(step("report")).build();
        assertEquals(first.plan().canonicalText(), renamed.plan().canonicalText());
        assertEquals(first.identity(), renamed.identity());
        assertEquals("""
                durable-batch-plan 2
                job shape
                start load
                node load chunk startLimit=0 allowStartIfComplete=false
                node report tasklet startLimit=0 allowStartIfComplete=false
                transition load COMPLETED next report
                """, first.plan().canonicalText());
    }

    @Test
    void theFingerprintCoversRestartRelevantSettings() {
        JobDefinition base = Job.named("shape").start(step("a")).next(step("b")).build();
        assertNotEquals(base.identity().fingerprint(),
                Job.named("shape").start(step("a").withStartLimit(2)).next(step("b")).build().identity().fingerprint());
        assertNotEquals(base.identity().fingerprint(), Job.named("shape").start(step("a"))
                .next(step("b").withAllowStartIfComplete(true)).build().identity().fingerprint());
        assertNotEquals(base.identity().fingerprint(), Job.named("shape").start(step("a")).on("*").to(step("b"))
                .build().identity().fingerprint());
        assertNotEquals(base.identity().fingerprint(), Job.named("shape").start(step("a").withId("a1")).next(step("b"))
                .build().identity().fingerprint());
        assertEquals(base.identity().fingerprint(), Job.named("shape").revision("2").start(step("a")).next(step("b"))
                .build().identity().fingerprint(), "the revision is a separate part of the identity");
        assertEquals("2", Job.named("shape").revision("2").start(step("a")).build().identity().revision());
    }

    @Test
    void declaredUpgradesLeadToThisDefinition() {
        JobDefinition v1 = Job.named("evolving").revision("1").start(step("a")).build();
        JobDefinition v2 = Job.named("evolving").revision("2")
                .upgradesFrom("1", v1.identity().fingerprint().hex())
                .start(step("a")).next(step("b")).build();
        assertEquals(1, v2.upgrades().size());
        assertEquals(v1.identity(), v2.upgrades().get(0).from());
        assertEquals(v2.identity(), v2.upgrades().get(0).to());
    }
}
