package io.durablebatch.jakarta.deployment.test.operator;

import static io.durablebatch.jakarta.deployment.test.operator.Executions.ended;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.operator;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.properties;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.run;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.step;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

import jakarta.batch.api.AbstractBatchlet;
import jakarta.batch.api.BatchProperty;
import jakarta.batch.api.listener.JobListener;
import jakarta.batch.runtime.BatchStatus;
import jakarta.batch.runtime.JobExecution;
import jakarta.batch.runtime.context.JobContext;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * The job's exit status as Jakarta Batch defines it: what {@code JobContext.setExitStatus} set last
 * (an {@code <end>}, {@code <fail>} or {@code <stop>} with {@code exit-status} sets it when taken),
 * else the batch status; and job-level {@code <listeners>}, whose {@code afterJob} runs before the
 * end is recorded, so the exit status it sets is the one the operator reads.
 */
class JobExitStatusAndListenersTest {

    private static final String NS = "xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"2.0\"";

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Executions.class, AppendingBatchlet.class, TracingListener.class)
                    .addAsResource(new StringAsset("""
                            <job id="ending" %s>
                                <step id="first">
                                    <batchlet ref="appendingBatchlet">
                                        <properties><property name="exit" value="#{jobParameters['exit']}"/></properties>
                                    </batchlet>
                                    <end on="VERY GOOD INVOCATION" exit-status="TEST ENDED"/>
                                    <fail on="BAD" exit-status="TEST_FAIL"/>
                                    <stop on="PAUSE" exit-status="PAUSED" restart="second"/>
                                    <fail on="PLAIN FAIL"/>
                                    <next on="*" to="second"/>
                                </step>
                                <step id="second"><batchlet ref="appendingBatchlet"/></step>
                            </job>
                            """.formatted(NS)), "META-INF/batch-jobs/ending.xml")
                    .addAsResource(new StringAsset("""
                            <job id="listened" %s>
                                <listeners>
                                    <listener ref="tracingListener">
                                        <properties><property name="name" value="A"/></properties>
                                    </listener>
                                    <listener ref="tracingListener">
                                        <properties><property name="name" value="#{jobParameters['second']}"/></properties>
                                    </listener>
                                </listeners>
                                <step id="only">
                                    <batchlet ref="appendingBatchlet">
                                        <properties><property name="exit" value="#{jobParameters['exit']}"/></properties>
                                    </batchlet>
                                    <end on="ENDED" exit-status="TEST ENDED"/>
                                </step>
                            </job>
                            """.formatted(NS)), "META-INF/batch-jobs/listened.xml"));

    /** What each execution's job listeners saw, in order. */
    static final Map<Long, Queue<String>> TRACE = new ConcurrentHashMap<>();

    /** Appends ":step" to the job's exit status (null at first) and returns its "exit" property, if any. */
    @Named("appendingBatchlet")
    @Dependent
    public static class AppendingBatchlet extends AbstractBatchlet {
        @Inject
        JobContext jobContext;

        @Inject
        jakarta.batch.runtime.context.StepContext stepContext;

        @Inject
        @BatchProperty
        String exit;

        @Override
        public String process() {
            jobContext.setExitStatus(jobContext.getExitStatus() + ":" + stepContext.getStepName());
            if ("CLEAR".equals(exit)) {
                jobContext.setExitStatus(null);
                return null;
            }
            if ("THROW".equals(exit)) {
                throw new IllegalStateException("the batchlet fails after setting the job's exit status");
            }
            return exit;
        }
    }

    /** Traces its calls and appends its name to the job's exit status; throws in afterJob when named "THROWER". */
    @Named("tracingListener")
    @Dependent
    public static class TracingListener implements JobListener {
        @Inject
        JobContext jobContext;

        @Inject
        @BatchProperty
        String name;

        private int calls;

        @Override
        public void beforeJob() {
            calls++;
            trace("before " + name + " " + jobContext.getBatchStatus() + " exit=" + jobContext.getExitStatus());
            jobContext.setExitStatus(jobContext.getExitStatus() + ":before " + name);
        }

        @Override
        public void afterJob() {
            calls++;
            trace("after " + name + " " + jobContext.getBatchStatus() + " exit=" + jobContext.getExitStatus()
                    + " calls=" + calls);
            jobContext.setExitStatus(jobContext.getExitStatus() + ":after " + name);
            if ("THROWER".equals(name)) {
                throw new IllegalStateException("afterJob fails");
            }
        }

        private void trace(String event) {
            TRACE.computeIfAbsent(jobContext.getExecutionId(), id -> new ConcurrentLinkedQueue<>()).add(event);
        }
    }

    private static List<String> trace(JobExecution execution) {
        return List.copyOf(TRACE.get(execution.getExecutionId()));
    }

    @Test
    void theExitStatusSetLastIsTheJobsAndAStepsIsItsOwn() {
        JobExecution execution = run("ending", properties("exit", "GO ON"));
        assertEquals(BatchStatus.COMPLETED, execution.getBatchStatus());
        assertEquals("null:first:second", execution.getExitStatus());
        assertEquals("GO ON", step(execution.getExecutionId(), "first").getExitStatus());
        assertEquals("COMPLETED", step(execution.getExecutionId(), "second").getExitStatus());
    }

    @Test
    void aNullExitStatusTakesBackTheOneSet() {
        JobExecution execution = run("ending", properties("exit", "CLEAR"));
        assertEquals(BatchStatus.COMPLETED, execution.getBatchStatus());
        assertEquals("null:second", execution.getExitStatus(), "the second step finds none set");
        assertEquals("COMPLETED", step(execution.getExecutionId(), "first").getExitStatus());
    }

    @Test
    void anEndFailOrStopWithAnExitStatusSetsItLast() {
        JobExecution endedWith = run("ending", properties("exit", "VERY GOOD INVOCATION"));
        assertEquals(BatchStatus.COMPLETED, endedWith.getBatchStatus());
        assertEquals("TEST ENDED", endedWith.getExitStatus());

        JobExecution failed = run("ending", properties("exit", "BAD"));
        assertEquals(BatchStatus.FAILED, failed.getBatchStatus());
        assertEquals("TEST_FAIL", failed.getExitStatus());

        JobExecution stopped = run("ending", properties("exit", "PAUSE"));
        assertEquals(BatchStatus.STOPPED, stopped.getBatchStatus());
        assertEquals("PAUSED", stopped.getExitStatus());
        JobExecution restarted = ended(operator().restart(stopped.getExecutionId(), properties()));
        assertEquals(BatchStatus.COMPLETED, restarted.getBatchStatus());
        assertEquals("null:second", restarted.getExitStatus(), "a restart is a new execution: nothing set yet");
    }

    @Test
    void anEndWithoutAnExitStatusKeepsTheOneSet() {
        JobExecution failed = run("ending", properties("exit", "PLAIN FAIL"));
        assertEquals(BatchStatus.FAILED, failed.getBatchStatus());
        assertEquals("null:first", failed.getExitStatus());

        JobExecution thrown = run("listened", properties("second", "B", "exit", "THROW"));
        assertEquals(BatchStatus.FAILED, thrown.getBatchStatus());
        assertEquals("null:before A:before B:only:after A:after B", thrown.getExitStatus(),
                "set before the failure, and by afterJob, which a failed job calls too");
        assertEquals("FAILED", step(thrown.getExecutionId(), "only").getExitStatus());
    }

    @Test
    void jobListenersRunAroundTheJobInDocumentOrderAndAfterJobSetsTheExitStatusRecorded() {
        JobExecution execution = run("listened", properties("second", "B", "exit", "ENDED"));
        assertEquals(BatchStatus.COMPLETED, execution.getBatchStatus());
        assertEquals(List.of("before A STARTED exit=null", "before B STARTED exit=null:before A",
                "after A COMPLETED exit=TEST ENDED calls=2", "after B COMPLETED exit=TEST ENDED:after A calls=2"),
                trace(execution), "the same instance before and after; the end's exit-status was set before afterJob");
        assertEquals("TEST ENDED:after A:after B", execution.getExitStatus());
        assertEquals("TEST ENDED:after A:after B", operator().getJobExecution(execution.getExecutionId()).getExitStatus());
    }

    @Test
    void anAfterJobThatThrowsFailsTheJobWithTheExitStatusSet() {
        JobExecution execution = run("listened", properties("second", "THROWER", "exit", "SOMETHING"));
        assertEquals(BatchStatus.FAILED, execution.getBatchStatus());
        assertEquals("null:before A:before THROWER:only:after A:after THROWER", execution.getExitStatus());
        assertEquals(BatchStatus.COMPLETED, step(execution.getExecutionId(), "only").getBatchStatus());
    }
}
