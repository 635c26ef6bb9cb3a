package io.durablebatch.jakarta.deployment.test.operator;

import static io.durablebatch.jakarta.deployment.test.operator.Executions.ended;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.operator;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.properties;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.run;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.step;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.stepNames;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import jakarta.batch.api.AbstractBatchlet;
import jakarta.batch.api.BatchProperty;
import jakarta.batch.api.Decider;
import jakarta.batch.runtime.BatchStatus;
import jakarta.batch.runtime.JobExecution;
import jakarta.batch.runtime.StepExecution;
import jakarta.batch.runtime.context.JobContext;
import jakarta.batch.runtime.context.StepContext;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code <decision>} and {@code <flow>}: a decider gets the step execution of the element before it
 * and its properties, its exit status becomes the job's and picks the decision's transition element
 * in document order, a restart asks it again (but continues at a stop's restart target); a flow's
 * elements run in its order and its {@code next} follows its last one.
 */
class DecisionAndFlowTest {

    private static final String NS = "xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"2.0\"";

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Executions.class, NotingBatchlet.class, ChoosingDecider.class)
                    .addAsResource(new StringAsset("""
                            <job id="deciding" %s>
                                <step id="measure" next="route">
                                    <batchlet ref="notingBatchlet"><properties>
                                        <property name="exit" value="MEASURED"/>
                                    </properties></batchlet>
                                </step>
                                <decision id="route" ref="choosingDecider">
                                    <properties><property name="choice" value="#{jobParameters['choice']}"/></properties>
                                    <next on="BIG*" to="big"/>
                                    <fail on="BIG_BAD"/>
                                    <end on="SMALL" exit-status="SMALL_DONE"/>
                                    <fail on="BAD"/>
                                    <stop on="PAUSE" restart="big"/>
                                </decision>
                                <step id="big">
                                    <batchlet ref="notingBatchlet"><properties>
                                        <property name="fail" value="#{jobParameters['failBig']}"/>
                                    </properties></batchlet>
                                </step>
                            </job>
                            """.formatted(NS)), "META-INF/batch-jobs/deciding.xml")
                    .addAsResource(new StringAsset("""
                            <job id="flowing" %s>
                                <step id="first" next="f"><batchlet ref="notingBatchlet"/></step>
                                <flow id="f" next="check">
                                    <step id="a" next="b"><batchlet ref="notingBatchlet"/></step>
                                    <step id="b">
                                        <batchlet ref="notingBatchlet"><properties>
                                            <property name="exit" value="#{jobParameters['exitOfB']}"/>
                                        </properties></batchlet>
                                        <next on="DETOUR" to="c"/>
                                    </step>
                                    <step id="c"><batchlet ref="notingBatchlet"/></step>
                                </flow>
                                <decision id="check" ref="choosingDecider">
                                    <properties><property name="choice" value="#{jobParameters['choice']}"/></properties>
                                    <next on="AGAIN" to="after"/>
                                    <end on="*" exit-status="FLOW_DONE"/>
                                </decision>
                                <step id="after"><batchlet ref="notingBatchlet"/></step>
                            </job>
                            """.formatted(NS)), "META-INF/batch-jobs/flowing.xml"));

    /** What each decider call saw: its choice and the step executions it was given. */
    static final Queue<String> DECIDED = new ConcurrentLinkedQueue<>();

    @Named
    @Dependent
    public static class NotingBatchlet extends AbstractBatchlet {
        @Inject
        @BatchProperty
        String exit;

        @Inject
        @BatchProperty
        String fail;

        @Inject
        StepContext step;

        @Override
        public String process() {
            if ("yes".equals(fail)) {
                throw new IllegalStateException("step " + step.getStepName() + " fails as asked");
            }
            return exit == null || exit.isEmpty() ? null : exit;
        }
    }

    @Named
    @Dependent
    public static class ChoosingDecider implements Decider {
        @Inject
        @BatchProperty
        String choice;

        @Inject
        JobContext job;

        @Override
        public String decide(StepExecution[] executions) {
            DECIDED.add(job.getExecutionId() + ":" + choice + " after " + Arrays.stream(executions)
                    .map(e -> e.getStepName() + "#" + e.getStepExecutionId() + "=" + e.getExitStatus()).toList());
            if ("throw".equals(choice)) {
                throw new IllegalStateException("the decider cannot decide");
            }
            return "null".equals(choice) ? null : choice;
        }
    }

    private static List<String> decided(long executionId) {
        return DECIDED.stream().filter(entry -> entry.startsWith(executionId + ":"))
                .map(entry -> entry.substring(entry.indexOf(':') + 1)).toList();
    }

    private static String seen(long executionId, String stepName) {
        StepExecution step = step(executionId, stepName);
        return "[" + stepName + "#" + step.getStepExecutionId() + "=" + step.getExitStatus() + "]";
    }

    @Test
    void theDecidersExitStatusIsTheJobsAndPicksTheFirstMatchingTransition() {
        JobExecution big = run("deciding", properties("choice", "BIG_ONE"));
        assertEquals(BatchStatus.COMPLETED, big.getBatchStatus());
        assertEquals(List.of("measure", "big"), stepNames(big.getExecutionId()));
        assertEquals(List.of("BIG_ONE after " + seen(big.getExecutionId(), "measure")), decided(big.getExecutionId()),
                "the decider got its property and the previous step's execution");
        assertEquals("BIG_ONE", big.getExitStatus(), "the decider's exit status is the job's, as if set on its context");

        JobExecution firstMatch = run("deciding", properties("choice", "BIG_BAD"));
        assertEquals(BatchStatus.COMPLETED, firstMatch.getBatchStatus(), "BIG* is written before the more specific BIG_BAD");
        assertEquals(List.of("measure", "big"), stepNames(firstMatch.getExecutionId()));

        JobExecution small = run("deciding", properties("choice", "SMALL"));
        assertEquals(BatchStatus.COMPLETED, small.getBatchStatus());
        assertEquals("SMALL_DONE", small.getExitStatus(), "an <end exit-status> overrides the decider's");
        assertEquals(List.of("measure"), stepNames(small.getExecutionId()));

        JobExecution bad = run("deciding", properties("choice", "BAD"));
        assertEquals(BatchStatus.FAILED, bad.getBatchStatus());
        assertEquals("BAD", bad.getExitStatus());

        JobExecution other = run("deciding", properties("choice", "NOTHING_MATCHES"));
        assertEquals(BatchStatus.COMPLETED, other.getBatchStatus(), "no transition element matches: the job ends");
        assertEquals("NOTHING_MATCHES", other.getExitStatus());
    }

    @Test
    void aDeciderThatThrowsOrReturnsNoExitStatusFailsTheJob() {
        JobExecution threw = run("deciding", properties("choice", "throw"));
        assertEquals(BatchStatus.FAILED, threw.getBatchStatus());
        assertEquals(List.of("measure"), stepNames(threw.getExecutionId()));

        JobExecution none = run("deciding", properties("choice", "null"));
        assertEquals(BatchStatus.FAILED, none.getBatchStatus());
        assertEquals(List.of("measure"), stepNames(none.getExecutionId()));
    }

    @Test
    void aRestartAsksTheDeciderAgainWithTheStepExecutionItReuses() {
        JobExecution failed = run("deciding", properties("choice", "BIG", "failBig", "yes"));
        assertEquals(BatchStatus.FAILED, failed.getBatchStatus());
        String measured = seen(failed.getExecutionId(), "measure");

        JobExecution restarted = ended(operator().restart(failed.getExecutionId(), properties("choice", "SMALL")));
        assertEquals(BatchStatus.COMPLETED, restarted.getBatchStatus());
        assertEquals("SMALL_DONE", restarted.getExitStatus());
        assertEquals(List.of("SMALL after " + measured), decided(restarted.getExecutionId()),
                "asked again, with the execution of the completed step the restart did not run again");
        assertEquals(List.of(), stepNames(restarted.getExecutionId()));
    }

    @Test
    void aRestartAfterTheDecisionStoppedContinuesAtTheRestartTarget() {
        JobExecution stopped = run("deciding", properties("choice", "PAUSE"));
        assertEquals(BatchStatus.STOPPED, stopped.getBatchStatus());
        assertEquals("PAUSE", stopped.getExitStatus());

        JobExecution restarted = ended(operator().restart(stopped.getExecutionId(), properties("choice", "BAD")));
        assertEquals(BatchStatus.COMPLETED, restarted.getBatchStatus());
        assertEquals(List.of(), decided(restarted.getExecutionId()), "the stop's route is replayed, not decided again");
        assertEquals(List.of("big"), stepNames(restarted.getExecutionId()));
    }

    @Test
    void aFlowRunsItsElementsInOrderAndItsNextFollowsItsLastStep() {
        JobExecution execution = run("flowing", properties("choice", "AGAIN", "exitOfB", "B_DONE"));
        assertEquals(BatchStatus.COMPLETED, execution.getBatchStatus());
        assertEquals(List.of("first", "a", "b", "after"), stepNames(execution.getExecutionId()));
        assertEquals(List.of("AGAIN after " + seen(execution.getExecutionId(), "b")), decided(execution.getExecutionId()),
                "the decision after a flow gets the flow's last step");

        JobExecution detour = run("flowing", properties("choice", "ANY", "exitOfB", "DETOUR"));
        assertEquals(BatchStatus.COMPLETED, detour.getBatchStatus());
        assertEquals(List.of("first", "a", "b", "c"), stepNames(detour.getExecutionId()));
        assertEquals(List.of("ANY after " + seen(detour.getExecutionId(), "c")), decided(detour.getExecutionId()));
        assertEquals("FLOW_DONE", detour.getExitStatus());
    }
}
