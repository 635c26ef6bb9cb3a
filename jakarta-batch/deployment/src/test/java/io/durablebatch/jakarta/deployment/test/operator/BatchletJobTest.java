package io.durablebatch.jakarta.deployment.test.operator;

import static io.durablebatch.jakarta.deployment.test.operator.Executions.operator;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.properties;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.run;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.step;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.stepNames;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

import jakarta.batch.api.AbstractBatchlet;
import jakarta.batch.api.BatchProperty;
import jakarta.batch.operations.JobStartException;
import jakarta.batch.runtime.BatchStatus;
import jakarta.batch.runtime.JobExecution;
import jakarta.batch.runtime.context.JobContext;
import jakarta.batch.runtime.context.StepContext;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.enterprise.util.AnnotationLiteral;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * Batchlet jobs started through {@code BatchRuntime.getJobOperator()}: steps in order, exit statuses
 * from {@code process()}, transitions taken in document order, {@code @BatchProperty} values
 * substituted per execution, contexts, and artifacts found by {@code @Named} name, {@code batch.xml}
 * id and class name.
 */
class BatchletJobTest {

    private static final String NS = "xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"2.0\"";

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar
                    .addClasses(Executions.class, RecordingBatchlet.class, NonBeanBatchlet.class,
                            ClassNamedBeanBatchlet.class, RuleBatchlet.class)
                    .addAsResource(new StringAsset("""
                            <job id="rules" %s>
                                <step id="only">
                                    <batchlet ref="ruleBatchlet">
                                        <properties><property name="action" value="#{jobParameters['action']}"/></properties>
                                    </batchlet>
                                </step>
                            </job>
                            """.formatted(NS)), "META-INF/batch-jobs/rules.xml")
                    .addAsResource(new StringAsset("""
                            <job id="recovering" %s>
                                <step id="risky">
                                    <batchlet ref="ruleBatchlet">
                                        <properties><property name="action" value="throw"/></properties>
                                    </batchlet>
                                    <next on="FAILED" to="cleanup"/>
                                </step>
                                <step id="cleanup"><batchlet ref="recordingBatchlet"/></step>
                            </job>
                            """.formatted(NS)), "META-INF/batch-jobs/recovering.xml")
                    .addAsResource(new StringAsset(
                            """
                                    <job id="twoSteps" %s>
                                        <properties>
                                            <property name="greeting" value="#{jobParameters['greeting']}?:hello;"/>
                                        </properties>
                                        <step id="first" next="second">
                                            <properties><property name="stepProperty" value="of #{jobProperties['greeting']}"/></properties>
                                            <batchlet ref="recordingBatchlet">
                                                <properties>
                                                    <property name="message" value="#{jobProperties['greeting']} #{jobParameters['who']}?:world;"/>
                                                    <property name="exit" value="FIRST_DONE"/>
                                                </properties>
                                            </batchlet>
                                        </step>
                                        <step id="second">
                                            <batchlet ref="recordingBatchlet">
                                                <properties><property name="exit" value="SECOND_DONE"/></properties>
                                            </batchlet>
                                        </step>
                                    </job>
                                    """
                                    .formatted(NS)),
                            "META-INF/batch-jobs/two-steps.xml")
                    .addAsResource(new StringAsset("""
                            <job id="branching" %s>
                                <step id="decide">
                                    <batchlet ref="recordingBatchlet">
                                        <properties><property name="exit" value="#{jobParameters['outcome']}"/></properties>
                                    </batchlet>
                                    <next on="LEFT" to="left"/>
                                    <end on="EARLY"/>
                                    <fail on="BAD"/>
                                    <stop on="PAUSE" restart="right"/>
                                    <next on="*" to="right"/>
                                </step>
                                <step id="left"><batchlet ref="recordingBatchlet"/></step>
                                <step id="right"><batchlet ref="recordingBatchlet"/></step>
                            </job>
                            """.formatted(NS)), "META-INF/batch-jobs/branching.xml")
                    .addAsResource(new StringAsset(
                            """
                                    <job id="byReference" %s>
                                        <step id="byBatchXmlId" next="byClassName">
                                            <batchlet ref="nonBean"><properties><property name="label" value="by id"/></properties></batchlet>
                                        </step>
                                        <step id="byClassName" next="beanByClassName">
                                            <batchlet ref="%s">
                                                <properties><property name="label" value="by class"/></properties>
                                            </batchlet>
                                        </step>
                                        <step id="beanByClassName" next="byParameter">
                                            <batchlet ref="%s"/>
                                        </step>
                                        <step id="byParameter">
                                            <batchlet ref="#{jobParameters['artifact']}"/>
                                        </step>
                                    </job>
                                    """
                                    .formatted(NS, NonBeanBatchlet.class.getName(), ClassNamedBeanBatchlet.class.getName())),
                            "META-INF/batch-jobs/by-reference.xml")
                    .addAsResource(new StringAsset("""
                            <batch-artifacts xmlns="https://jakarta.ee/xml/ns/jakartaee">
                                <ref id="nonBean" class="%s"/>
                            </batch-artifacts>
                            """.formatted(NonBeanBatchlet.class.getName())), "META-INF/batch.xml"));

    /** What each batchlet call saw, by the {@code run} job parameter: "step:what". */
    static final Map<String, Queue<String>> SEEN = new ConcurrentHashMap<>();

    static void saw(String run, String entry) {
        SEEN.computeIfAbsent(run, key -> new ConcurrentLinkedQueue<>()).add(entry);
    }

    static List<String> seen(String run) {
        return List.copyOf(SEEN.getOrDefault(run, new ConcurrentLinkedQueue<>()));
    }

    @Named("recordingBatchlet")
    @Dependent
    static class RecordingBatchlet extends AbstractBatchlet {

        @Inject
        @BatchProperty(name = "message")
        String message;

        @Inject
        @BatchProperty
        String exit;

        @Inject
        JobContext jobContext;

        @Inject
        StepContext stepContext;

        @Override
        public String process() {
            String run = operator().getParameters(jobContext.getExecutionId()).getProperty("run");
            String step = stepContext.getStepName();
            saw(run, step + ":message=" + message);
            saw(run, step + ":job=" + jobContext.getJobName() + "/" + jobContext.getProperties());
            saw(run, step + ":step=" + stepContext.getProperties() + "/" + stepContext.getBatchStatus());
            saw(run, step + ":ids=" + (jobContext.getExecutionId() > 0) + "/" + (jobContext.getInstanceId() > 0) + "/"
                    + (stepContext.getStepExecutionId() > 0));
            saw(run, step + ":shared=" + jobContext.getTransientUserData());
            jobContext.setTransientUserData("set by " + step);
            return exit;
        }
    }

    /** No CDI bean: found through batch.xml or its class name, and injected by the batch runtime. */
    public static class NonBeanBatchlet extends AbstractBatchlet {

        @BatchProperty
        String label = "unset";

        @BatchProperty(name = "undeclared")
        String undeclared = "initial";

        @Override
        public String process() {
            saw("by-reference", label + "/" + undeclared);
            return "NON_BEAN";
        }
    }

    /** A CDI bean without a name, found by its class name. */
    @Dependent
    public static class ClassNamedBeanBatchlet extends AbstractBatchlet {

        @Inject
        StepContext stepContext;

        @Override
        public String process() {
            saw("by-reference", stepContext.getStepName() + ":bean");
            return null;
        }
    }

    /** Breaks one rule of the contexts or exit statuses, as its property says. */
    @Named("ruleBatchlet")
    @Dependent
    static class RuleBatchlet extends AbstractBatchlet {
        @Inject
        @BatchProperty
        String action;

        @Inject
        JobContext jobContext;

        @Inject
        StepContext stepContext;

        @Override
        public String process() {
            switch (action) {
                case "job-exit-status" -> jobContext.setExitStatus("MINE: " + jobContext.getExecutionId());
                case "bad-job-exit-status" -> jobContext.setExitStatus("control\u0007character");
                case "throw" -> throw new IllegalStateException("the rule batchlet fails as asked");
                case "looked-up-property" -> {
                    // a programmatic lookup, as a batchlet that is no bean makes it: the literal names the property
                    return "looked up: " + CDI.current().select(String.class, new ActionLiteral()).get();
                }
                // serializable as a list, not as what it holds
                case "unserializable-user-data" -> stepContext.setPersistentUserData(new java.util.ArrayList<>(
                        List.of(new Object())));
                case "context-exit-status" -> stepContext.setExitStatus("SET_BY_CONTEXT");
                case "too-long-exit-status" -> {
                    return "x".repeat(2001);
                }
                default -> {
                    return action;
                }
            }
            return null;
        }
    }

    /** {@code @BatchProperty(name = "action")}, for a programmatic lookup. */
    @SuppressWarnings("all")
    static final class ActionLiteral extends AnnotationLiteral<BatchProperty> implements BatchProperty {
        @Override
        public String name() {
            return "action";
        }
    }

    @Inject
    Instance<JobContext> jobContextOutsideAnArtifact;

    @Test
    void aPropertyIsFoundByAProgrammaticLookupThroughItsLiteralsName() {
        long id = run("rules", properties("run", "rules", "action", "looked-up-property")).getExecutionId();
        assertEquals("looked up: looked-up-property", step(id, "only").getExitStatus());
    }

    @Test
    void theStepContextsExitStatusIsTakenWhenProcessReturnsNull() {
        long id = run("rules", properties("run", "rules", "action", "context-exit-status")).getExecutionId();
        assertEquals("SET_BY_CONTEXT", step(id, "only").getExitStatus());
    }

    @Test
    void aBatchletSetsTheJobsExitStatusAndAnyTextIsAnExitStatus() {
        JobExecution execution = run("rules", properties("run", "rules", "action", "job-exit-status"));
        assertEquals(BatchStatus.COMPLETED, execution.getBatchStatus());
        assertEquals("MINE: " + execution.getExecutionId(), execution.getExitStatus());
        assertEquals("COMPLETED", step(execution.getExecutionId(), "only").getExitStatus(), "the step keeps its own");

        JobExecution spaced = run("rules", properties("run", "rules", "action", "VERY GOOD INVOCATION"));
        assertEquals("VERY GOOD INVOCATION", step(spaced.getExecutionId(), "only").getExitStatus());
        assertEquals("COMPLETED", spaced.getExitStatus(), "the job's is its batch status unless set");
    }

    @Test
    void whatTheKernelCannotKeepIsRefusedAndFailsTheStep() {
        for (String action : List.of("bad-job-exit-status", "unserializable-user-data", "too-long-exit-status")) {
            JobExecution execution = run("rules", properties("run", "rules", "action", action));
            assertEquals(BatchStatus.FAILED, execution.getBatchStatus(), action);
            assertEquals(BatchStatus.FAILED, step(execution.getExecutionId(), "only").getBatchStatus(), action);
        }
    }

    @Test
    void aContextCannotBeInjectedOutsideABatchArtifact() {
        Throwable refused = assertThrows(RuntimeException.class, () -> jobContextOutsideAnArtifact.get().getJobName());
        while (!(refused instanceof IllegalStateException) && refused.getCause() != null) {
            refused = refused.getCause();
        }
        assertTrue(String.valueOf(refused.getMessage()).contains("JobContext can be injected only into a batch artifact"),
                String.valueOf(refused));
    }

    @Test
    void aParameterNameTheKernelCannotStoreRefusesTheStart() {
        JobStartException refused = assertThrows(JobStartException.class,
                () -> operator().start("rules", properties("not a name", "x")));
        assertTrue(refused.getMessage().contains("parameter name may contain only letters, digits and _-.:/@"),
                refused::getMessage);
    }

    @Test
    void aTwoStepJobRunsItsStepsInOrderAndCompletes() {
        JobExecution execution = run("two-steps", properties("run", "plain"));
        assertEquals(BatchStatus.COMPLETED, execution.getBatchStatus());
        assertEquals("COMPLETED", execution.getExitStatus());
        assertEquals("two-steps", execution.getJobName());
        assertNotNull(execution.getStartTime());
        assertNotNull(execution.getEndTime());
        assertEquals(List.of("first", "second"), stepNames(execution.getExecutionId()));
        assertEquals(BatchStatus.COMPLETED, step(execution.getExecutionId(), "second").getBatchStatus());
    }

    @Test
    void theBatchletsReturnValueIsTheStepsExitStatus() {
        long id = run("two-steps", properties("run", "exits")).getExecutionId();
        assertEquals("FIRST_DONE", step(id, "first").getExitStatus());
        assertEquals("SECOND_DONE", step(id, "second").getExitStatus());
    }

    @Test
    void batchPropertiesAreSubstitutedFromTheJobParametersOrTheirDefaults() {
        run("two-steps", properties("run", "defaults"));
        run("two-steps", properties("run", "given", "greeting", "hi", "who", "there"));
        assertTrue(seen("defaults").contains("first:message=hello world"), () -> seen("defaults").toString());
        assertTrue(seen("given").contains("first:message=hi there"), () -> seen("given").toString());
        assertTrue(seen("given").contains("second:message=null"), "an undeclared property injects null");
    }

    @Test
    void theContextsShowTheExecutionItsPropertiesAndTheSharedUserData() {
        run("two-steps", properties("run", "contexts", "greeting", "hi"));
        List<String> seen = seen("contexts");
        assertTrue(seen.contains("first:job=twoSteps/{greeting=hi}"), seen::toString);
        assertTrue(seen.contains("first:step={stepProperty=of hi}/STARTED"), seen::toString);
        assertTrue(seen.contains("second:step={}/STARTED"), seen::toString);
        assertTrue(seen.contains("first:ids=true/true/true"), seen::toString);
        assertTrue(seen.contains("first:shared=null"), seen::toString);
        assertTrue(seen.contains("second:shared=set by first"), "transient user data is shared by the steps: " + seen);
    }

    @Test
    void transitionsAreTakenOnTheExitStatusInDocumentOrder() {
        JobExecution left = run("branching", properties("run", "left", "outcome", "LEFT"));
        assertEquals(BatchStatus.COMPLETED, left.getBatchStatus());
        assertEquals(List.of("decide", "left"), stepNames(left.getExecutionId()));

        JobExecution other = run("branching", properties("run", "other", "outcome", "LEFTISH"));
        assertEquals(List.of("decide", "right"), stepNames(other.getExecutionId()));

        JobExecution early = run("branching", properties("run", "early", "outcome", "EARLY"));
        assertEquals(BatchStatus.COMPLETED, early.getBatchStatus());
        assertEquals(List.of("decide"), stepNames(early.getExecutionId()));

        JobExecution bad = run("branching", properties("run", "bad", "outcome", "BAD"));
        assertEquals(BatchStatus.FAILED, bad.getBatchStatus());
        assertEquals(BatchStatus.COMPLETED, step(bad.getExecutionId(), "decide").getBatchStatus(),
                "the step completed; its <fail> failed the job");

        JobExecution paused = run("branching", properties("run", "paused", "outcome", "PAUSE"));
        assertEquals(BatchStatus.STOPPED, paused.getBatchStatus());
        JobExecution resumed = Executions.ended(operator().restart(paused.getExecutionId(), properties("run", "resumed")));
        assertEquals(BatchStatus.COMPLETED, resumed.getBatchStatus());
        assertEquals(List.of("right"), stepNames(resumed.getExecutionId()), "a restart continues at restart=\"right\"");
    }

    @Test
    void aFailedStepTakesATransitionElementMatchingFailed() {
        JobExecution execution = run("recovering", properties("run", "recovering"));
        assertEquals(BatchStatus.FAILED, step(execution.getExecutionId(), "risky").getBatchStatus());
        assertEquals(BatchStatus.COMPLETED, step(execution.getExecutionId(), "cleanup").getBatchStatus());
        assertEquals(BatchStatus.COMPLETED, execution.getBatchStatus(), "the job went on after the failed step");
    }

    @Test
    void artifactsAreFoundByBatchXmlIdByClassNameAndByASubstitutedRef() {
        SEEN.remove("by-reference");
        JobExecution execution = run("by-reference", properties("run", "by-reference", "artifact", "recordingBatchlet"));
        assertEquals(BatchStatus.COMPLETED, execution.getBatchStatus());
        List<String> seen = seen("by-reference");
        assertEquals(List.of("by id/initial", "by class/initial", "beanByClassName:bean"),
                seen.subList(0, 3), "a property the element does not declare leaves the field as it was");
        assertEquals("NON_BEAN", step(execution.getExecutionId(), "byBatchXmlId").getExitStatus());
        assertEquals("COMPLETED", step(execution.getExecutionId(), "beanByClassName").getExitStatus(),
                "process() returning null leaves the default exit status");
        assertTrue(seen.stream().anyMatch(entry -> entry.startsWith("byParameter:")), seen::toString);
    }

    @Test
    void aRefThatNothingAnswersFailsTheStepNamingTheRef() {
        JobExecution execution = run("by-reference", properties("run", "missing", "artifact", "noSuchArtifact"));
        assertEquals(BatchStatus.FAILED, execution.getBatchStatus());
        assertEquals(BatchStatus.FAILED, step(execution.getExecutionId(), "byParameter").getBatchStatus());
        assertNull(SEEN.get("missing"));
    }
}
