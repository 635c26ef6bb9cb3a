package io.durablebatch.jakarta.runtime.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

import org.junit.jupiter.api.Test;

import io.durablebatch.execution.ExitStatus;
import io.durablebatch.jakarta.runtime.execution.JakartaParameters;
import io.durablebatch.jakarta.runtime.jsl.JslException;
import io.durablebatch.jakarta.runtime.jsl.JslJob;
import io.durablebatch.jakarta.runtime.jsl.JslParser;
import io.durablebatch.jakarta.runtime.jsl.JslProblem;
import io.durablebatch.jakarta.runtime.jsl.JslValidator;
import io.durablebatch.job.ChunkStep;
import io.durablebatch.job.Decision;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.JobDefinitionException;
import io.durablebatch.job.PartitionedStep;
import io.durablebatch.job.Split;
import io.durablebatch.job.SplitFlow;
import io.durablebatch.job.TaskletStep;
import io.durablebatch.job.Transition;
import io.durablebatch.job.TransitionKind;
import io.durablebatch.listener.ChunkListener;
import io.durablebatch.listener.ItemProcessListener;
import io.durablebatch.listener.ItemReadListener;
import io.durablebatch.listener.ItemWriteListener;
import io.durablebatch.listener.StepListener;
import io.durablebatch.operator.JobParameters;

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
    void theFirstMatchingTransitionElementInDocumentOrderIsTaken() {
        JobDefinition definition = JslPlans.plan(job("""
                <step id="a"><batchlet ref="x"/><end on="D*"/><fail on="DONE"/></step>"""));
        assertEquals("END", route(definition, "a", "DONE"), "D* comes first, although DONE is more specific");
        assertEquals(List.of(TransitionKind.END, TransitionKind.FAIL, TransitionKind.FAIL, TransitionKind.END),
                definition.transitionsFrom("a").stream().map(Transition::kind).toList(),
                "the written ones, then the implicit failure and end, in that order");
        JobDefinition twoStars = JslPlans.plan(job("""
                <step id="a"><batchlet ref="x"/><fail on="*BAD*"/></step>"""));
        assertEquals("FAIL", route(twoStars, "a", "VERY_BAD_DAY"), "before the implicit end of the job");
        assertEquals("END", route(twoStars, "a", "GOOD"));
    }

    @Test
    void aDecisionsFirstMatchingElementIsTakenAsTheTckWritesThem() {
        JobDefinition definition = JslPlans.plan(job("""
                <step id="s" next="d"><batchlet ref="x"/></step>
                <decision id="d" ref="decider">
                    <next to="t" on="?:Next*"/>
                    <end exit-status="EndNormal" on="1:EndNormal"/>
                    <fail exit-status="unexpected" on="*"/>
                </decision>
                <step id="t"><batchlet ref="x"/></step>"""));
        assertEquals("NEXT t", route(definition, "d", "1:NextNormal"));
        assertEquals("END", route(definition, "d", "1:EndNormal"));
        assertEquals("FAIL", route(definition, "d", "2:Other"));
    }

    @Test
    void aStopMayRestartAtTheStoppingStepOrOneBeforeIt() {
        JobDefinition self = JslPlans.plan(job("""
                <step id="a" allow-start-if-complete="true"><batchlet ref="x"/><stop on="PAUSE" restart="a"/></step>"""));
        assertEquals("STOP a", route(self, "a", "PAUSE"));
        JobDefinition earlier = JslPlans.plan(job("""
                <step id="a" next="b"><batchlet ref="x"/></step>
                <step id="b"><batchlet ref="x"/><stop on="PAUSE" restart="a"/></step>"""));
        assertEquals("STOP a", route(earlier, "b", "PAUSE"));
    }

    @Test
    void aStepNoTransitionLeadsToIsLeftOutOfThePlan() {
        JobDefinition definition = JslPlans.plan(job("""
                <step id="a"><batchlet ref="x"/><stop on="PAUSE" restart="c"/></step>
                <step id="b"><batchlet ref="x"/></step>
                <step id="c"><batchlet ref="x"/></step>"""));
        assertEquals(List.of("a", "c"), List.copyOf(definition.nodes().keySet()), "c is a restart position");
        assertEquals(definition.identity(), JslPlans.plan(job("""
                <step id="a"><batchlet ref="x"/><stop on="PAUSE" restart="c"/></step>
                <step id="b" start-limit="4"><batchlet ref="x"/></step>
                <step id="c"><batchlet ref="x"/></step>""")).identity(), "it shapes nothing that runs");
    }

    @Test
    void aStopWithoutRestartRestartsAtTheFirstStep() {
        JobDefinition definition = JslPlans.plan(job("""
                <step id="a" next="b"><batchlet ref="x"/><stop on="PAUSE" exit-status="PAUSED"/></step>
                <step id="b"><batchlet ref="x"/></step>"""));
        Transition stop = definition.route("a", "PAUSE").orElseThrow();
        assertEquals("STOP", route(definition, "a", "PAUSE"), "no restart position: the kernel restarts at the start");
        assertEquals(Optional.of(ExitStatus.of("PAUSED")), stop.exitStatus());
    }

    @Test
    void startLimitAndAllowStartIfCompleteAreThePlans() {
        JobDefinition definition = JslPlans.plan(job("""
                <step id="a" start-limit="3" allow-start-if-complete="true"><batchlet ref="x"/></step>"""));
        assertEquals(3, definition.plan().nodes().get(0).startLimit());
        assertTrue(definition.plan().nodes().get(0).allowStartIfComplete());
    }

    @Test
    void planAttributesOfTheJobParametersAreResolvedPerExecutionUnderOneFingerprint() {
        JobDefinition definition = JslPlans.plan(job("""
                <step id="a" start-limit="#{jobParameters['limit']}"
                        allow-start-if-complete="#{jobParameters['again']}">
                    <batchlet ref="#{jobParameters['artifact']}">
                        <properties><property name="p" value="#{jobParameters['p']}"/></properties>
                    </batchlet>
                    <stop on="#{jobParameters['halt']}" restart="#{jobParameters['resume']}"/>
                    <end on="DONE" exit-status="#{jobParameters['status']}"/>
                    <next on="*" to="#{jobParameters['then']}"/>
                </step>
                <step id="b"><batchlet ref="x"/></step>
                <step id="c"><batchlet ref="x"/></step>"""));
        JobDefinition first = definition.forExecution(parameters("limit", "2", "again", "true", "halt", "WAIT",
                "resume", "a", "status", "ONE", "then", "b"));
        JobDefinition second = definition.forExecution(parameters("limit", " 5 ", "again", "no", "halt", "PAUSE",
                "resume", "b", "status", "TWO", "then", "c"));
        assertEquals(definition.identity(), first.identity(), "the plan is the written one");
        assertEquals(definition.identity(), second.identity());
        assertEquals("STOP a", route(first, "a", "WAIT"));
        assertEquals("NEXT b", route(first, "a", "PAUSE"));
        assertEquals("STOP b", route(second, "a", "PAUSE"));
        assertEquals("NEXT c", route(second, "a", "WAIT"));
        assertEquals(Optional.of(ExitStatus.of("TWO")), second.route("a", "DONE").flatMap(Transition::exitStatus));
        TaskletStep a = (TaskletStep) first.nodes().get("a");
        assertEquals(2, a.settings().startLimit());
        assertTrue(a.settings().allowStartIfComplete());
        TaskletStep again = (TaskletStep) second.nodes().get("a");
        assertEquals(5, again.settings().startLimit());
        assertFalse(again.settings().allowStartIfComplete(), "JSL reads anything but true as false");
        assertEquals(Optional.of("#{jobParameters['limit']}"), definition.plan().nodes().get(0).startLimitPerExecution());
        assertTrue(definition.plan().canonicalText().contains("transition a $\"#{jobParameters['halt']}\" stop "
                + "$\"#{jobParameters['resume']}\""), definition.plan().canonicalText());
    }

    @Test
    void theWrittenFormIsThePlanSoAnotherParameterIsAnotherFingerprint() {
        JobDefinition one = JslPlans.plan(job("""
                <step id="a"><batchlet ref="x"/><end on="#{jobParameters['one']}"/></step>"""));
        JobDefinition other = JslPlans.plan(job("""
                <step id="a"><batchlet ref="x"/><end on="#{jobParameters['other']}"/></step>"""));
        JobDefinition written = JslPlans.plan(job("""
                <step id="a"><batchlet ref="x"/><end on="OK"/></step>"""));
        assertNotEquals(one.identity(), other.identity());
        assertNotEquals(one.identity(), written.identity());
    }

    @Test
    void aTargetAnExecutionResolvesMustNameAnElementAndKeepsEveryStepInThePlan() {
        JobDefinition definition = JslPlans.plan(job("""
                <step id="a" next="#{jobParameters['then']}"><batchlet ref="x"/></step>
                <flow id="f"><step id="b"><batchlet ref="x"/></step></flow>
                <step id="c"><batchlet ref="x"/></step>"""));
        assertEquals(List.of("a", "b", "c"), List.copyOf(definition.nodes().keySet()),
                "no step is unreachable when a target is resolved per execution");
        assertEquals("NEXT b", route(definition.forExecution(parameters("then", "f")), "a", "OK"),
                "a flow's id is its first element's");
        JobDefinitionException unknown = assertThrows(JobDefinitionException.class,
                () -> definition.forExecution(parameters("then", "nowhere")));
        assertEquals("job 'test', node 'a': the transition's target ${#{jobParameters['then']}} resolved to 'nowhere', "
                + "which names no node of the job", unknown.getMessage());
        JobDefinitionException looping = assertThrows(JobDefinitionException.class,
                () -> definition.forExecution(parameters("then", "a")));
        assertTrue(looping.getMessage().contains("loop back to this node"), looping.getMessage());
    }

    @Test
    void aValueAnExecutionCannotUseFailsItsResolutionNamingTheNode() {
        JobDefinition definition = JslPlans.plan(job("""
                <step id="a" start-limit="#{jobParameters['limit']}"><batchlet ref="x"/>
                    <end on="#{jobParameters['on']}"/></step>"""));
        assertEquals(0, ((TaskletStep) definition.forExecution(parameters("on", "X")).nodes().get("a")).settings()
                .startLimit(), "a start limit left empty is no limit");
        assertTrue(assertThrows(JobDefinitionException.class, () -> definition.forExecution(parameters("limit", "many",
                "on", "X"))).getMessage().contains("the start limit ${#{jobParameters['limit']}} resolved to 'many'"));
        assertTrue(assertThrows(JobDefinitionException.class, () -> definition.forExecution(parameters("on", " X")))
                .getMessage()
                .contains("the transition's pattern ${#{jobParameters['on']}} resolved to ' X', which is invalid"));
    }

    @Test
    void whatMustBeTheSameInEveryExecutionIsStillRefused() {
        assertTrue(
                refusal("""
                        <step id="a"><chunk checkpoint-policy="#{jobParameters['n']}"><reader ref="r"/><writer ref="w"/></chunk></step>""")
                        .contains("checkpoint-policy=\"#{jobParameters['n']}\" is a substitution"));
        JslJob restartable = JslParser.parse("META-INF/batch-jobs/test.xml", new ByteArrayInputStream(("""
                <job id="test" restartable="#{jobParameters['r']}" xmlns="https://jakarta.ee/xml/ns/jakartaee" version="2.0">
                    <step id="a"><batchlet ref="x"/></step>
                </job>""").getBytes(StandardCharsets.UTF_8)));
        assertTrue(assertThrows(JslException.class, () -> JslPlans.plan(restartable)).getMessage()
                .contains("restartable=\"#{jobParameters['r']}\" is a substitution"));
        assertTrue(refusal("""
                <properties><property name="p" value="#{partitionPlan['x']}"/></properties>
                <step id="a"><batchlet ref="x"/><end on="#{jobProperties['p']}"/></step>""")
                .contains("on=\"#{jobProperties['p']}\" reads a partition plan, which only the properties inside a "
                        + "partition can"),
                "not even through a property");
    }

    private static JobParameters parameters(String... namesAndValues) {
        Properties properties = new Properties();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            properties.setProperty(namesAndValues[i], namesAndValues[i + 1]);
        }
        return JakartaParameters.forStart(properties);
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
    void aPropertyAnExecutionDecidesIsResolvedInTheScopeOfTheAttribute() {
        JobDefinition definition = JslPlans.plan(job("""
                <properties>
                    <property name="then" value="#{jobParameters['then']}"/>
                    <property name="alias" value="#{jobProperties['then']}"/>
                </properties>
                <step id="a" next="#{jobProperties['alias']}"><batchlet ref="x"/></step>
                <step id="b" next="#{jobProperties['then']}">
                    <properties><property name="then" value="#{jobParameters['after']}?:d;"/></properties>
                    <batchlet ref="x"/>
                </step>
                <step id="c"><batchlet ref="x"/></step>
                <step id="d"><batchlet ref="x"/></step>"""));
        JobDefinition resolved = definition.forExecution(parameters("then", "b"));
        assertEquals("NEXT b", route(resolved, "a", "OK"), "a property that refers to a parameter, through another");
        assertEquals("NEXT d", route(resolved, "b", "OK"), "the step's own property overrides the job's");
        assertEquals("NEXT c", route(definition.forExecution(parameters("then", "b", "after", "c")), "b", "OK"));
    }

    @Test
    void aSplitIsAKernelSplitWhoseFlowsEndWhereTheJobWould() {
        JobDefinition definition = JslPlans.plan(job("""
                <step id="a" next="s"><batchlet ref="x"/></step>
                <split id="s" next="d">
                    <flow id="f1">
                        <step id="b" next="c"><batchlet ref="x"/></step>
                        <step id="c"><batchlet ref="x"/></step>
                    </flow>
                    <flow id="f2"><step id="e"><batchlet ref="x"/></step></flow>
                </split>
                <decision id="d" ref="decider"><end on="*"/></decision>"""));
        Split split = assertInstanceOf(Split.class, definition.node("s").orElseThrow());
        assertEquals(List.of("b", "e"), split.flows().stream().map(SplitFlow::startNode).toList(),
                "a flow is flattened into the split's flow: it starts at its first element");
        assertEquals("NEXT s", route(definition, "a", "COMPLETED"));
        assertEquals("NEXT c", route(definition, "b", "COMPLETED"));
        assertEquals("END", route(definition, "c", "COMPLETED"), "where the job's flow would end, the split's flow does");
        assertEquals("FAIL", route(definition, "e", "FAILED"), "a failed step fails its flow, and so the job");
        assertEquals("NEXT d", route(definition, "s", "COMPLETED"), "the split goes on to its next");
        assertTrue(definition.plan().canonicalText().contains("flow s 0 start b\nflow s 1 start e\n"),
                definition.plan().canonicalText());
    }

    @Test
    void aSplitInAFlowOfASplitIsASplitOfThatFlow() {
        JobDefinition definition = JslPlans.plan(job("""
                <split id="outer">
                    <flow id="f1">
                        <step id="a" next="inner"><batchlet ref="x"/></step>
                        <split id="inner" next="b">
                            <flow id="g1"><step id="c"><batchlet ref="x"/></step></flow>
                            <flow id="g2"><step id="d"><batchlet ref="x"/></step></flow>
                        </split>
                        <step id="b"><batchlet ref="x"/></step>
                    </flow>
                    <flow id="f2"><step id="e"><batchlet ref="x"/></step></flow>
                </split>"""));
        Split outer = assertInstanceOf(Split.class, definition.startNode());
        assertEquals(List.of("a", "e"), outer.flows().stream().map(SplitFlow::startNode).toList());
        Split inner = assertInstanceOf(Split.class, definition.node("inner").orElseThrow());
        assertEquals(List.of("c", "d"), inner.flows().stream().map(SplitFlow::startNode).toList());
        assertEquals("NEXT inner", route(definition, "a", "COMPLETED"));
        assertEquals("NEXT b", route(definition, "inner", "COMPLETED"));
        assertEquals("END", route(definition, "c", "COMPLETED"));
        assertEquals("END", route(definition, "outer", "COMPLETED"), "a split without next ends the job");
        assertEquals(List.of("FAILED", "*"), definition.transitionsFrom("c").stream().map(t -> t.on().value()).toList(),
                "a nested split's transitions are the job's once, however deep it is");
    }

    @Test
    void anEndOfASplitsFlowCannotSetTheJobsExitStatus() {
        String refusal = refusal("""
                <split id="s">
                    <flow id="f1"><step id="b"><batchlet ref="x"/><end on="*" exit-status="DONE"/></step></flow>
                    <flow id="f2"><step id="e"><batchlet ref="x"/></step></flow>
                </split>""");
        assertTrue(refusal.contains("an exit-status on <end> or a restart on <stop> inside a split's flow is not "
                + "supported yet"), refusal);
    }

    @Test
    void aDecisionIsAKernelDecisionAskedAgainOnRestartRoutingInDocumentOrder() {
        JobDefinition definition = JslPlans.plan(job("""
                <step id="a" next="d"><batchlet ref="x"/></step>
                <decision id="d" ref="decider">
                    <next on="GO*" to="b"/>
                    <end on="DONE" exit-status="FINISHED_EARLY"/>
                    <fail on="BAD"/>
                </decision>
                <step id="b"><batchlet ref="x"/></step>"""));
        Decision decision = (Decision) definition.node("d").orElseThrow();
        assertTrue(decision.isAskedAgainOnRestart(), "a restart asks a JSL decider again");
        assertEquals("decision-asked-again", decision.kind());
        assertEquals("NEXT b", route(definition, "d", "GO_ON"));
        assertEquals("END", route(definition, "d", "DONE"));
        assertEquals(Optional.of(ExitStatus.of("FINISHED_EARLY")), definition.route("d", "DONE").orElseThrow().exitStatus());
        assertEquals("FAIL", route(definition, "d", "BAD"));
        assertEquals("END", route(definition, "d", "ANYTHING"), "an exit status no element matches ends the job");
        assertEquals("END", route(definition, "d", "FAILED"), "a decider's FAILED is an exit status like another");
    }

    @Test
    void aFlowIsFlattenedItsNextAndTransitionsFollowWhereItsElementsEndIt() {
        JobDefinition definition = JslPlans.plan(job("""
                <step id="first" next="f"><batchlet ref="x"/></step>
                <flow id="f" next="after">
                    <step id="a" next="b"><batchlet ref="x"/></step>
                    <step id="b"><batchlet ref="x"/><next on="AGAIN_LATER" to="c"/></step>
                    <step id="c"><batchlet ref="x"/></step>
                    <end on="EARLY"/>
                </flow>
                <step id="after"><batchlet ref="x"/></step>"""));
        assertEquals("NEXT a", route(definition, "first", "COMPLETED"), "a transition to a flow goes to its first element");
        assertEquals("NEXT b", route(definition, "a", "COMPLETED"));
        assertEquals("NEXT c", route(definition, "b", "AGAIN_LATER"), "the element's own transitions come first");
        assertEquals("END", route(definition, "b", "EARLY"), "then the flow's transition elements");
        assertEquals("NEXT after", route(definition, "b", "COMPLETED"), "then the flow's next");
        assertEquals("FAIL", route(definition, "b", "FAILED"), "a failed step in a flow fails the job");
        assertEquals("END", route(definition, "c", "EARLY"));
        assertEquals("NEXT after", route(definition, "c", "COMPLETED"));
        assertEquals("END", route(definition, "after", "COMPLETED"));
        assertEquals(List.of("a", "after", "b", "c", "first"),
                definition.plan().nodes().stream().map(node -> node.id()).toList(), "no node for the flow itself");
    }

    @Test
    void nestedFlowsAndADecisionInAFlowEndTheirFlowWhereNoTransitionMatches() {
        JobDefinition definition = JslPlans.plan(job("""
                <flow id="outer">
                    <flow id="inner" next="d">
                        <step id="a"><batchlet ref="x"/></step>
                    </flow>
                    <decision id="d" ref="decider"><next on="AGAIN" to="b"/></decision>
                    <step id="b"><batchlet ref="x"/></step>
                    <fail on="NOT_SO_GOOD"/>
                </flow>"""));
        assertEquals("a", definition.plan().startNode(), "the job starts at its first flow's first element");
        assertEquals("NEXT d", route(definition, "a", "COMPLETED"));
        assertEquals("NEXT b", route(definition, "d", "AGAIN"));
        assertEquals("FAIL", route(definition, "d", "NOT_SO_GOOD"), "the outer flow's transition follows the decision");
        assertEquals("END", route(definition, "d", "OTHER"));
        assertEquals("END", route(definition, "b", "COMPLETED"));
    }

    @Test
    void anElementsOwnTransitionsComeBeforeItsFlows() {
        JobDefinition definition = JslPlans.plan(job("""
                <flow id="f">
                    <step id="a"><batchlet ref="x"/><next on="A*" to="b"/></step>
                    <step id="b"><batchlet ref="x"/></step>
                    <end on="AB"/>
                </flow>"""));
        assertEquals("NEXT b", route(definition, "a", "AB"), "the step's A* is written before its flow's AB");
        assertEquals("END", route(definition, "b", "AB"));
    }

    @Test
    void aDecisionAsTheFirstElementOfAFlowIsRefusedByTheValidator() {
        List<String> problems = JslValidator.validate(job("""
                <flow id="f">
                    <decision id="d" ref="decider"><end on="*"/></decision>
                </flow>""")).stream().map(JslProblem::message).toList();
        assertTrue(problems.stream().anyMatch(p -> p.contains("a decision cannot be the first element of a flow")),
                problems::toString);
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
    void aPartitionedChunkIsAKernelPartitionedStepWhoseWorkerIsAChunkStepNamedAfterIt() {
        JobDefinition definition = JslPlans.plan(job("""
                <step id="a">
                    <chunk item-count="4"><reader ref="r"/><writer ref="w"/></chunk>
                    <partition><plan partitions="3"/><collector ref="c"/></partition>
                </step>"""));
        assertEquals("partitioned:chunk", definition.plan().nodes().get(0).kind());
        PartitionedStep step = (PartitionedStep) definition.node("a").orElseThrow();
        ChunkStep<?, ?> worker = (ChunkStep<?, ?>) step.worker();
        assertEquals("a:partition", worker.name().value());
        assertEquals(4, worker.commitInterval());
        assertTrue(step.localWorkersOnly(), "its collector's data travels in memory");
        String refusal = refusal("""
                <step id="a:partition"><chunk><reader ref="r"/><writer ref="w"/></chunk>
                    <partition><plan partitions="2"/></partition></step>""");
        assertTrue(refusal.contains("the id of a partitioned step must not end with ':partition'"), refusal);
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
    void anExitStatusTheRepositoryCannotKeepIsRefused() {
        assertTrue(refusal("""
                <step id="a"><batchlet ref="x"/><end on="*" exit-status="%s"/></step>""".formatted("x".repeat(2001)))
                .contains("exitStatus.code must be at most 2000 characters"));
    }

    @Test
    void thePlanIsTheStructureSoAnEditedRefKeepsTheFingerprint() {
        JobDefinition before = JslPlans.plan(job("<step id=\"a\"><batchlet ref=\"x\"/></step>"));
        JobDefinition edited = JslPlans.plan(job("<step id=\"a\"><batchlet ref=\"y\"/></step>"));
        JobDefinition reshaped = JslPlans.plan(job("<step id=\"a\" start-limit=\"2\"><batchlet ref=\"x\"/></step>"));
        assertEquals(before.identity(), edited.identity());
        assertTrue(!before.identity().equals(reshaped.identity()));
    }

    private static ChunkStep<?, ?> chunkStep(String content) {
        return (ChunkStep<?, ?>) JslPlans.plan(job(content)).nodes().get("c");
    }

    @Test
    void aChunkIsAKernelChunkStepCommittingEveryItemCountItems() {
        assertEquals(10, chunkStep("""
                <step id="c"><chunk><reader ref="r"/><writer ref="w"/></chunk></step>""").commitInterval(),
                "item-count defaults to 10");
        ChunkStep<?, ?> given = chunkStep("""
                <properties><property name="size" value="25"/></properties>
                <step id="c"><chunk item-count="#{jobProperties['size']}" checkpoint-policy="item" time-limit="0">
                    <reader ref="r"/><processor ref="p"/><writer ref="w"/>
                </chunk></step>""");
        assertEquals(25, given.commitInterval());
        assertTrue(given.processor().isPresent());
        assertEquals(0, given.retry().limit(), "a transient failure fails the step, as any exception does in Jakarta");
        assertEquals(1, given.listeners().of(StepListener.class).size(), "the step's Jakarta attempt begins and ends");
        assertEquals(0, given.listeners().of(ItemReadListener.class).size(),
                "no listener declared: the chunk loop makes no per-item call");
        assertEquals(0, given.listeners().of(ItemProcessListener.class).size());
        assertEquals(0, given.listeners().of(ItemWriteListener.class).size());
        ChunkStep<?, ?> listened = chunkStep("""
                <step id="c"><listeners><listener ref="l"/></listeners>
                    <chunk><reader ref="r"/><processor ref="p"/><writer ref="w"/></chunk></step>""");
        assertEquals(1, listened.listeners().of(ItemReadListener.class).size(),
                "a declared listener may be an item listener: the item callbacks call it");
        assertEquals(1, listened.listeners().of(ItemProcessListener.class).size());
        assertEquals(1, listened.listeners().of(ItemWriteListener.class).size());
    }

    @Test
    void stepListenersAreNotPartOfThePlanAndABatchletStepGetsOneKernelStepListener() {
        JobDefinition plain = JslPlans.plan(job("<step id=\"c\"><batchlet ref=\"x\"/></step>"));
        JobDefinition listened = JslPlans.plan(job("""
                <step id="c"><listeners><listener ref="l1"/><listener ref="l2"/></listeners><batchlet ref="x"/></step>"""));
        assertEquals(plain.identity(), listened.identity());
        TaskletStep tasklet = (TaskletStep) listened.nodes().get("c");
        assertEquals(1, tasklet.listeners().of(StepListener.class).size());
        assertEquals(0, tasklet.listeners().of(ChunkListener.class).size(), "a batchlet step has no chunks to listen to");
        assertTrue(((TaskletStep) plain.nodes().get("c")).listeners().isEmpty());
    }

    @Test
    void theItemCountIsNoPartOfThePlan() {
        JobDefinition ten = JslPlans.plan(job("<step id=\"c\"><chunk><reader ref=\"r\"/><writer ref=\"w\"/></chunk></step>"));
        JobDefinition five = JslPlans.plan(job("""
                <step id="c"><chunk item-count="5"><reader ref="r"/><writer ref="w"/></chunk></step>"""));
        assertEquals(ten.identity(), five.identity(), "the kernel's plan leaves commit intervals out, as tuning");
    }

    @Test
    void badChunkPoliciesAreRefused() {
        String refusal = refusal("""
                <step id="c">
                    <chunk checkpoint-policy="sometimes" skip-limit="-1" retry-limit="two" item-count="0">
                        <reader ref="r"/><writer ref="w"/>
                        <skippable-exception-classes><include class="com.example.Missing"/></skippable-exception-classes>
                        <retryable-exception-classes><include class="java.lang.String"/></retryable-exception-classes>
                        <no-rollback-exception-classes>
                            <include class="java.lang.Exception"/><exclude class="java.lang.Exception"/>
                        </no-rollback-exception-classes>
                    </chunk>
                </step>""");
        for (String refused : List.of(
                "<skippable-exception-classes><include class=\"com.example.Missing\"> names no class the application can load",
                "<retryable-exception-classes><include class=\"java.lang.String\"> names a class that is not an exception",
                "<no-rollback-exception-classes>: exception class java.lang.Exception is listed twice",
                "skip-limit=\"-1\" is no number of 0 or more", "retry-limit=\"two\" is no number of 0 or more",
                "checkpoint-policy=\"sometimes\" is neither \"item\" nor \"custom\"",
                "item-count=\"0\" is no number of 1 or more")) {
            assertTrue(refusal.contains(refused), refused + " in " + refusal);
        }
        assertTrue(refusal("""
                <step id="c"><chunk checkpoint-policy="custom"><reader ref="r"/><writer ref="w"/></chunk></step>""")
                .contains("checkpoint-policy=\"custom\" needs a <checkpoint-algorithm ref=\"...\"/>"));
    }

    @Test
    void chunkLimitsAnExecutionDecidesAreResolvedPerAttemptAndAreNoPartOfThePlan() {
        String perExecution = """
                <step id="c"><chunk skip-limit="#{jobParameters['skips']}" retry-limit="#{jobParameters['retries']}"
                        time-limit="#{jobParameters['seconds']}"><reader ref="r"/><writer ref="w"/></chunk></step>""";
        ChunkStep<?, ?> step = chunkStep(perExecution);
        assertTrue(step.skipPolicy().limit().isEmpty(), "declared without; each attempt resolves its own");
        assertTrue(step.retryPolicy().limit().isEmpty());
        assertTrue(step.checkpointPolicy().timeLimit().isEmpty());
        JobDefinition written = JslPlans.plan(
                job("""
                        <step id="c"><chunk skip-limit="2" retry-limit="3" time-limit="5"><reader ref="r"/><writer ref="w"/></chunk></step>"""));
        assertEquals(written.identity(), JslPlans.plan(job(perExecution)).identity(),
                "the kernel's plan leaves chunk limits out, as tuning");
        assertTrue(refusal("""
                <properties><property name="n" value="some"/></properties>
                <step id="c"><chunk skip-limit="#{jobProperties['n']}"><reader ref="r"/><writer ref="w"/></chunk></step>""")
                .contains("skip-limit=\"some\" is no number of 0 or more"), "a fixed one is checked at start");
    }

    @Test
    void anItemCountAnExecutionDecidesIsResolvedPerAttempt() {
        ChunkStep<?, ?> step = chunkStep("""
                <step id="c"><chunk item-count="#{jobParameters['n']}"><reader ref="r"/><writer ref="w"/></chunk></step>""");
        assertEquals(10, step.commitInterval(), "declared with the default; each attempt resolves its own");
        assertTrue(refusal("""
                <properties><property name="n" value="many"/></properties>
                <step id="c"><chunk item-count="#{jobProperties['n']}"><reader ref="r"/><writer ref="w"/></chunk></step>""")
                .contains("item-count=\"many\" is no number of 1 or more"), "a fixed one is checked at start");
    }
}
