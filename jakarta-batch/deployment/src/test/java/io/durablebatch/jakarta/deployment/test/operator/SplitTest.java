package io.durablebatch.jakarta.deployment.test.operator;

import static io.durablebatch.jakarta.deployment.test.operator.Executions.ended;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.operator;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.properties;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.run;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.stepNames;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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
 * {@code <split>}: its flows run on threads of their own, each with a {@code JobContext} of its own
 * (whose exit status is not the job's); a decision after it gets the last step execution of every
 * flow; a failed flow fails the job, and a restart runs only the steps that did not complete.
 */
class SplitTest {

    private static final String NS = "xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"2.0\"";

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Executions.class, FlowBatchlet.class, LookingDecider.class)
                    .addAsResource(new StringAsset("""
                            <job id="parallelFlows" %s>
                                <step id="first" next="both"><batchlet ref="flowBatchlet"/></step>
                                <split id="both" next="look">
                                    <flow id="f1">
                                        <step id="a" next="b"><batchlet ref="flowBatchlet"/></step>
                                        <step id="b"><batchlet ref="flowBatchlet"/></step>
                                    </flow>
                                    <flow id="f2">
                                        <step id="c">
                                            <batchlet ref="flowBatchlet"><properties>
                                                <property name="fail" value="#{jobParameters['failC']}"/>
                                            </properties></batchlet>
                                        </step>
                                    </flow>
                                </split>
                                <decision id="look" ref="lookingDecider">
                                    <end on="*"/>
                                </decision>
                            </job>
                            """.formatted(NS)), "META-INF/batch-jobs/parallelFlows.xml"));

    /** Per execution and step: the thread it ran on and the identity of the JobContext it was given. */
    static final Map<String, String> THREADS = new ConcurrentHashMap<>();
    static final Map<String, Integer> JOB_CONTEXTS = new ConcurrentHashMap<>();
    static final Queue<String> DECIDED = new ConcurrentLinkedQueue<>();

    @Named
    @Dependent
    public static class FlowBatchlet extends AbstractBatchlet {
        @Inject
        @BatchProperty
        String fail;

        @Inject
        JobContext job;

        @Inject
        StepContext step;

        @Override
        public String process() {
            String key = job.getExecutionId() + ":" + step.getStepName();
            THREADS.put(key, Thread.currentThread().getName());
            JOB_CONTEXTS.put(key, System.identityHashCode(job));
            if ("yes".equals(fail)) {
                throw new IllegalStateException("step " + step.getStepName() + " fails as asked");
            }
            // a flow's own: the job's exit status stays the decider's
            job.setExitStatus("SET_BY_" + step.getStepName());
            return "DONE_" + step.getStepName();
        }
    }

    @Named
    @Dependent
    public static class LookingDecider implements Decider {
        @Inject
        JobContext job;

        @Override
        public String decide(StepExecution[] executions) {
            JOB_CONTEXTS.put(job.getExecutionId() + ":look", System.identityHashCode(job));
            DECIDED.add(job.getExecutionId() + ":" + Arrays.stream(executions)
                    .map(e -> e.getStepName() + "=" + e.getExitStatus()).sorted().toList());
            return "LOOKED";
        }
    }

    private static String of(long execution, String step, Map<String, ?> seen) {
        return String.valueOf(seen.get(execution + ":" + step));
    }

    @Test
    void flowsRunOnThreadsOfTheirOwnWithJobContextsOfTheirOwnAndTheDecisionSeesEveryFlowsLastStep() {
        JobExecution execution = run("parallelFlows", properties("failC", "no"));
        long id = execution.getExecutionId();
        assertEquals(BatchStatus.COMPLETED, execution.getBatchStatus());
        assertEquals("LOOKED", execution.getExitStatus(), "what a flow sets on its JobContext is not the job's");
        assertEquals(Set.of("first", "a", "b", "c"), Set.copyOf(stepNames(id)));
        assertEquals(List.of(id + ":[b=DONE_b, c=DONE_c]"), DECIDED.stream().filter(d -> d.startsWith(id + ":")).toList());
        assertNotEquals(of(id, "a", THREADS), of(id, "c", THREADS), "each flow runs on a thread of its own");
        assertEquals(of(id, "a", THREADS), of(id, "b", THREADS), "a flow's steps run on its thread");
        assertEquals(of(id, "a", JOB_CONTEXTS), of(id, "b", JOB_CONTEXTS), "a flow's steps share its JobContext");
        assertEquals(3, Set.of(of(id, "first", JOB_CONTEXTS), of(id, "a", JOB_CONTEXTS), of(id, "c", JOB_CONTEXTS))
                .size(), "the job's own flow has one JobContext, and each flow of the split one of its own");
        assertEquals(of(id, "first", JOB_CONTEXTS), of(id, "look", JOB_CONTEXTS), "after the split, the job's own");
    }

    @Test
    void aFailedFlowFailsTheJobAndARestartRunsOnlyWhatDidNotComplete() {
        JobExecution failed = run("parallelFlows", properties("failC", "yes"));
        assertEquals(BatchStatus.FAILED, failed.getBatchStatus());
        assertEquals(Set.of("first", "a", "b", "c"), Set.copyOf(stepNames(failed.getExecutionId())),
                "the other flow ran to its end");

        JobExecution restarted = ended(operator().restart(failed.getExecutionId(), properties("failC", "no")));
        assertEquals(BatchStatus.COMPLETED, restarted.getBatchStatus());
        assertEquals(List.of("c"), stepNames(restarted.getExecutionId()));
        long id = restarted.getExecutionId();
        assertEquals(List.of(id + ":[b=DONE_b, c=DONE_c]"), DECIDED.stream().filter(d -> d.startsWith(id + ":")).toList(),
                "the decision sees the step execution b's flow completed before, and c's new one");
    }
}
