package io.durablebatch.runtime.jakarta.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.durablebatch.execution.ExitStatus;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.PartitionedStep;
import io.durablebatch.job.Transition;
import io.durablebatch.job.TransitionKind;
import io.durablebatch.runtime.jakarta.jsl.JslException;
import io.durablebatch.runtime.jakarta.jsl.JslJob;
import io.durablebatch.runtime.jakarta.jsl.JslParser;

/** What a JSL job becomes on the kernel, and what this slice refuses. */
class JslPlansTest {

    private static JslJob job(String content) {
        String xml = "<job id=\"test\" xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"2.0\">\n" + content
                + "\n</job>\n";
        return JslParser.parse("META-INF/batch-jobs/test.xml", new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }

    private static String refusal(String content) {
        return assertThrows(JslException.class, () -> JslPlans.plan(job(content))).getMessage();
    }

    private static String route(JobDefinition definition, String node, String exitStatus) {
        Transition transition = definition.route(node, exitStatus).orElseThrow();
        return transition.kind() + transition.to().map(to -> " " + to).orElse("");
    }

    @Test
    void aFailedStepTakesOnlyATransitionElementMatchingFailed() {
        JobDefinition continuing = JslPlans.plan(job("""
                <step id="a"><batchlet ref="x"/><next on="*" to="b"/></step>
                <step id="b"><batchlet ref="x"/></step>"""));
        assertEquals("NEXT b", route(continuing, "a", "FAILED"), "on=\"*\" matches a failed step too");
        JobDefinition recovering = JslPlans.plan(job("""
                <step id="a" next="c"><batchlet ref="x"/><next on="FAILED" to="b"/></step>
                <step id="b"><batchlet ref="x"/></step>
                <step id="c"><batchlet ref="x"/></step>"""));
        assertEquals("NEXT b", route(recovering, "a", "FAILED"));
        JobDefinition failing = JslPlans.plan(job("""
                <step id="a" next="b"><batchlet ref="x"/><next on="OK" to="b"/></step>
                <step id="b"><batchlet ref="x"/></step>"""));
        assertEquals("FAIL", route(failing, "a", "FAILED"), "a failed step never takes next=");
        assertEquals("NEXT b", route(failing, "a", "OK"));
    }

    @Test
    void theNextAttributeBesideTransitionElementsIsTakenWhenNoneMatches() {
        JobDefinition definition = JslPlans.plan(job("""
                <step id="a" next="c"><batchlet ref="x"/><end on="EARLY"/></step>
                <step id="c"><batchlet ref="x"/></step>"""));
        assertEquals("END", route(definition, "a", "EARLY"));
        assertEquals("NEXT c", route(definition, "a", "OTHER"));
        assertEquals("FAIL", route(definition, "a", "FAILED"));
    }

    @Test
    void theNextAttributeIsTakenOnAnyExitStatusAndTheLastStepEndsTheJob() {
        JobDefinition definition = JslPlans.plan(job("""
                <step id="a" next="b"><batchlet ref="x"/></step>
                <step id="b"><batchlet ref="x"/></step>"""));
        assertEquals("NEXT b", route(definition, "a", "WHATEVER"));
        assertEquals("END", route(definition, "b", "WHATEVER"), "the job's exit status is its batch status");
        assertEquals("FAIL", route(definition, "b", "FAILED"));
    }

    @Test
    void anExitStatusNoTransitionMatchesEndsTheJob() {
        JobDefinition definition = JslPlans.plan(job("""
                <step id="a"><batchlet ref="x"/><stop on="PAUSE" restart="b"/></step>
                <step id="b"><batchlet ref="x"/></step>"""));
        assertEquals("STOP b", route(definition, "a", "PAUSE"));
        assertEquals("END", route(definition, "a", "OTHER"));
    }

    @Test
    void documentOrderIsKeptWhereTheKernelAgrees() {
        JobDefinition definition = JslPlans.plan(job("""
                <step id="a"><batchlet ref="x"/><end on="DONE"/><fail on="DONE*"/></step>"""));
        assertEquals("END", route(definition, "a", "DONE"));
        assertEquals("FAIL", route(definition, "a", "DONE_LATE"));
        assertEquals(List.of(TransitionKind.FAIL, TransitionKind.END, TransitionKind.FAIL, TransitionKind.END),
                definition.transitionsFrom("a").stream().map(Transition::kind).toList());
    }

    @Test
    void anEarlierPatternOverlappingAMoreSpecificLaterOneIsRefused() {
        String refusal = refusal("""
                <step id="a"><batchlet ref="x"/><end on="D*"/><fail on="DONE"/></step>""");
        assertTrue(refusal.contains("<end on=\"D*\"> comes first, but <fail on=\"DONE\"> is more specific"), refusal);
    }

    @Test
    void aPatternWithTwoStarsBeforeTheImplicitEndIsRefused() {
        String refusal = refusal("""
                <step id="a"><batchlet ref="x"/><fail on="*BAD*"/></step>""");
        assertTrue(refusal.contains("<fail on=\"*BAD*\"> comes first, but the end of the job on any other exit status"),
                refusal);
    }

    @Test
    void aStopThatRestartsAtAStepThisExecutionMayHaveRunIsRefused() {
        assertTrue(refusal("""
                <step id="a" allow-start-if-complete="true"><batchlet ref="x"/><stop on="PAUSE" restart="a"/></step>""")
                .contains(": restart=\"a\" is not supported yet: it names a step this execution may have run"));
        assertTrue(refusal("""
                <step id="a" next="b"><batchlet ref="x"/></step>
                <step id="b"><batchlet ref="x"/><stop on="PAUSE" restart="a"/></step>""")
                .contains("restart=\"a\" is not supported yet: it names a step this execution may have run"));
        JslPlans.plan(job("""
                <step id="a"><batchlet ref="x"/><stop on="PAUSE" restart="b"/><next on="*" to="c"/></step>
                <step id="b"><batchlet ref="x"/></step>
                <step id="c"><batchlet ref="x"/></step>"""));
    }

    @Test
    void startLimitAndAllowStartIfCompleteAreThePlans() {
        JobDefinition definition = JslPlans.plan(job("""
                <step id="a" start-limit="3" allow-start-if-complete="true"><batchlet ref="x"/></step>"""));
        assertEquals(3, definition.plan().nodes().get(0).startLimit());
        assertTrue(definition.plan().nodes().get(0).allowStartIfComplete());
    }

    @Test
    void refsAndPropertiesMayBeSubstitutionsButPlanAttributesMayNot() {
        JslPlans.plan(job("""
                <step id="a"><batchlet ref="#{jobParameters['artifact']}">
                    <properties><property name="p" value="#{jobParameters['p']}"/></properties>
                </batchlet></step>"""));
        assertTrue(refusal("""
                <step id="a" start-limit="#{jobParameters['n']}"><batchlet ref="x"/></step>""")
                .contains("start-limit=\"#{jobParameters['n']}\" is a substitution"));
        assertTrue(refusal("""
                <step id="a"><batchlet ref="x"/><end on="#{jobParameters['on']}"/></step>""")
                .contains("on=\"#{jobParameters['on']}\" is a substitution"));
    }

    @Test
    void aPlanAttributeMayReferToJobAndStepPropertiesTheJobXmlFixes() {
        JobDefinition definition = JslPlans.plan(job("""
                <properties>
                    <property name="then" value="b"/>
                    <property name="alias" value="#{jobProperties['then']}"/>
                    <property name="limit" value="#{jobProperties['undefined']}?:3;"/>
                </properties>
                <step id="a" next="#{jobProperties['alias']}" start-limit="#{jobProperties['limit']}">
                    <properties><property name="stop" value="HALT"/></properties>
                    <batchlet ref="x"/><end on="#{jobProperties['stop']}"/>
                </step>
                <step id="b"><batchlet ref="x"/></step>"""));
        assertEquals("NEXT b", route(definition, "a", "OK"), "a property that refers to a written-out one is fixed");
        assertEquals("END", route(definition, "a", "HALT"), "the step's own properties are in scope");
        assertEquals(3, definition.plan().nodes().get(0).startLimit(), "an undefined property takes its default");
    }

    @Test
    void aPropertyAnExecutionDecidesCannotShapeThePlanNorCanOneReferringToIt() {
        assertTrue(refusal("""
                <properties>
                    <property name="then" value="#{jobParameters['then']}"/>
                    <property name="alias" value="#{jobProperties['then']}"/>
                </properties>
                <step id="a" next="#{jobProperties['alias']}"><batchlet ref="x"/></step>
                <step id="b"><batchlet ref="x"/></step>""").contains("next=\"#{jobProperties['alias']}\" is a substitution"));
        assertTrue(refusal("""
                <properties><property name="then" value="b"/></properties>
                <step id="a" next="#{jobProperties['then']}">
                    <properties><property name="then" value="#{systemProperties['user.name']}"/></properties>
                    <batchlet ref="x"/>
                </step>
                <step id="b"><batchlet ref="x"/></step>""").contains("is a substitution"),
                "a step property that an execution decides overrides the job's fixed one");
    }

    @Test
    void whatTheSliceLacksIsRefusedElementByElement() {
        String refusal = refusal("""
                <listeners><listener ref="l"/></listeners>
                <step id="a" next="s">
                    <listeners><listener ref="l"/></listeners>
                    <batchlet ref="x"/>
                </step>
                <split id="s" next="d"><flow id="f"><step id="b"><batchlet ref="x"/></step></flow></split>
                <decision id="d" ref="decider"><end on="*"/></decision>""");
        assertTrue(refusal.startsWith("3 problems in job XML:"), refusal);
        assertTrue(refusal.contains("<step id=\"a\">: step <listeners> is not supported yet"), refusal);
        assertTrue(refusal.contains("<split id=\"s\">: <split> is not supported yet"), refusal);
        assertTrue(refusal.contains("<decision id=\"d\">: <decision> is not supported yet"), refusal);
    }

    @Test
    void aPartitionedBatchletIsAKernelPartitionedStepWhoseWorkersAreNamedAfterIt() {
        JobDefinition definition = JslPlans.plan(job("""
                <step id="a" start-limit="2">
                    <batchlet ref="x"/>
                    <partition><plan partitions="#{jobParameters['n']}" threads="2"/></partition>
                </step>"""));
        assertEquals("partitioned:tasklet", definition.plan().nodes().get(0).kind());
        assertEquals(2, definition.plan().nodes().get(0).startLimit());
        PartitionedStep step = (PartitionedStep) definition.node("a").orElseThrow();
        assertEquals("a:partition", step.worker().name().value());
        JslPlans.plan(job("""
                <step id="a"><batchlet ref="x"/><partition><mapper ref="#{jobParameters['m']}"/></partition></step>"""));
    }

    @Test
    void onlyAPartitionedStepWithACollectorAnalyzerOrReducerRunsItsPartitionsLocallyOnly() {
        String plain = "<step id=\"a\"><batchlet ref=\"x\"/><partition><plan partitions=\"2\"/>%s</partition></step>";
        assertTrue(!((PartitionedStep) JslPlans.plan(job(plain.formatted(""))).node("a").orElseThrow()).localWorkersOnly(),
                "remote workers may run its partitions");
        for (String element : List.of("<collector ref=\"c\"/>", "<analyzer ref=\"a\"/>", "<reducer ref=\"r\"/>")) {
            PartitionedStep step = (PartitionedStep) JslPlans.plan(job(plain.formatted(element))).node("a").orElseThrow();
            assertTrue(step.localWorkersOnly(), element);
        }
    }

    @Test
    void aPartitionedStepWhoseIdLooksLikeItsWorkersIsRefused() {
        String refusal = refusal("""
                <step id="a:partition"><batchlet ref="x"/><partition><plan partitions="2"/></partition></step>""");
        assertTrue(refusal.contains("<step id=\"a:partition\">: the id of a partitioned step must not end with "
                + "':partition'"), refusal);
        String tooLong = refusal("<step id=\"" + "s".repeat(91)
                + "\"><batchlet ref=\"x\"/><partition><plan partitions=\"2\"/></partition></step>");
        assertTrue(tooLong.contains("may have at most 90 characters"), tooLong);
    }

    @Test
    void jobListenersAreOneKernelListenerBesideTheContextsCleanup() {
        JobDefinition plain = JslPlans.plan(job("<step id=\"a\"><batchlet ref=\"x\"/></step>"));
        JobDefinition listened = JslPlans.plan(job("""
                <listeners><listener ref="l1"/><listener ref="l2"/></listeners>
                <step id="a"><batchlet ref="x"/></step>"""));
        assertEquals(1, plain.listeners().of(io.durablebatch.listener.JobListener.class).size());
        assertEquals(0, plain.listeners().of(io.durablebatch.listener.JobEndListener.class).size(),
                "without <listeners> the end may commit with the last step's completion");
        assertEquals(2, listened.listeners().of(io.durablebatch.listener.JobListener.class).size());
        assertEquals(1, listened.listeners().of(io.durablebatch.listener.JobEndListener.class).size());
        assertEquals(plain.identity(), listened.identity(), "listeners are not part of the plan");
    }

    @Test
    void theExitStatusOfAnEndFailOrStopIsTheTransitionsOwn() {
        JobDefinition job = JslPlans.plan(job("""
                <step id="a">
                    <batchlet ref="x"/>
                    <end on="VERY GOOD INVOCATION" exit-status="TEST ENDED"/>
                    <fail on="BAD" exit-status="TEST_FAIL"/>
                    <stop on="PAUSE" exit-status="PAUSED" restart="b"/>
                    <next on="*" to="b"/>
                </step>
                <step id="b"><batchlet ref="x"/></step>"""));
        assertEquals(Optional.of("TEST ENDED"), job.route("a", "VERY GOOD INVOCATION")
                .flatMap(Transition::exitStatus).map(ExitStatus::code));
        assertEquals(Optional.of("TEST_FAIL"), job.route("a", "BAD").flatMap(Transition::exitStatus).map(ExitStatus::code));
        assertEquals(Optional.of("PAUSED"), job.route("a", "PAUSE").flatMap(Transition::exitStatus).map(ExitStatus::code));
        assertEquals(Optional.empty(), job.route("a", "FAILED").flatMap(Transition::exitStatus), "the implicit fail");
        assertNotEquals(JslPlans.plan(job("""
                <step id="a"><batchlet ref="x"/><end on="*" exit-status="ONE"/></step>""")).identity(),
                JslPlans.plan(job("""
                        <step id="a"><batchlet ref="x"/><end on="*" exit-status="OTHER"/></step>""")).identity());
    }

    @Test
    void anExitStatusAnExecutionDecidesOrTheRepositoryCannotKeepAndStopWithoutRestartAreRefused() {
        assertTrue(refusal("""
                <step id="a"><batchlet ref="x"/><end on="*" exit-status="#{jobParameters['x']}"/></step>""")
                .contains("exit-status=\"#{jobParameters['x']}\" is a substitution"));
        assertTrue(refusal("""
                <step id="a"><batchlet ref="x"/><end on="*" exit-status="%s"/></step>""".formatted("x".repeat(101)))
                .contains("exitStatus.code must be at most 100 characters"));
        assertTrue(refusal("""
                <step id="a"><batchlet ref="x"/><stop on="*"/></step>""")
                .contains("a <stop> needs restart=\"...\" here"));
    }

    @Test
    void thePlanIsTheStructureSoAnEditedRefKeepsTheFingerprint() {
        JobDefinition before = JslPlans.plan(job("<step id=\"a\"><batchlet ref=\"x\"/></step>"));
        JobDefinition edited = JslPlans.plan(job("<step id=\"a\"><batchlet ref=\"y\"/></step>"));
        JobDefinition reshaped = JslPlans.plan(job("<step id=\"a\" start-limit=\"2\"><batchlet ref=\"x\"/></step>"));
        assertEquals(before.identity(), edited.identity());
        assertTrue(!before.identity().equals(reshaped.identity()));
    }
}
