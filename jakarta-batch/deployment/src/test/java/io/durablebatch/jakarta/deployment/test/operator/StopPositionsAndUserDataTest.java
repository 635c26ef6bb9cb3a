package io.durablebatch.jakarta.deployment.test.operator;

import static io.durablebatch.jakarta.deployment.test.operator.Executions.ended;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.operator;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.properties;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.run;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.step;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;

import jakarta.batch.api.AbstractBatchlet;
import jakarta.batch.api.BatchProperty;
import jakarta.batch.runtime.BatchStatus;
import jakarta.batch.runtime.JobExecution;
import jakarta.batch.runtime.context.StepContext;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * Where a restart begins after a {@code <stop>} (its {@code restart} step, which may be the stopping
 * step or one before it, else the first step, skipping completed steps on their exit statuses), and
 * the persistent user data of batchlet steps: kept with the step's end, a failure included, and
 * given back to the step's restart.
 */
class StopPositionsAndUserDataTest {

    private static final String NS = "xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"2.0\"";

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Executions.class, PausingBatchlet.class, KeepingBatchlet.class)
                    .addAsResource(job("pause-to-start", """
                            <step id="first" allow-start-if-complete="true" next="second">
                                <batchlet ref="pausingBatchlet"/>
                                <stop on="PAUSE" exit-status="PAUSED"/>
                            </step>
                            <step id="second"><batchlet ref="pausingBatchlet"/><end on="*"/></step>"""),
                            "META-INF/batch-jobs/pause-to-start.xml")
                    .addAsResource(job("pause-for-good", """
                            <step id="first" next="second">
                                <batchlet ref="pausingBatchlet"/>
                                <stop on="PAUSE"/>
                            </step>
                            <step id="second"><batchlet ref="pausingBatchlet"/><end on="*"/></step>"""),
                            "META-INF/batch-jobs/pause-for-good.xml")
                    .addAsResource(job("pause-at-itself", """
                            <step id="check" allow-start-if-complete="true" next="after">
                                <batchlet ref="pausingBatchlet"/>
                                <stop on="PAUSE" restart="check"/>
                            </step>
                            <step id="after"><batchlet ref="pausingBatchlet"/><end on="*"/></step>"""),
                            "META-INF/batch-jobs/pause-at-itself.xml")
                    .addAsResource(job("pause-before", """
                            <step id="first" allow-start-if-complete="true" next="second">
                                <batchlet ref="pausingBatchlet"/>
                            </step>
                            <step id="second" allow-start-if-complete="true">
                                <batchlet ref="pausingBatchlet"/>
                                <stop on="PAUSE" exit-status="PAUSED" restart="first"/>
                                <end on="*"/>
                            </step>"""),
                            "META-INF/batch-jobs/pause-before.xml")
                    .addAsResource(job("keeping", """
                            <step id="keep">
                                <batchlet ref="keepingBatchlet">
                                    <properties><property name="action" value="#{jobParameters['action']}"/></properties>
                                </batchlet>
                            </step>"""),
                            "META-INF/batch-jobs/keeping.xml"));

    private static StringAsset job(String id, String steps) {
        return new StringAsset("<job id=\"" + id + "\" " + NS + ">\n" + steps + "\n</job>\n");
    }

    /** "run:step" for every process() call. */
    static final Queue<String> RAN = new ConcurrentLinkedQueue<>();
    /** "run:data" for the persistent user data every process() call of keepingBatchlet found. */
    static final Queue<String> FOUND = new ConcurrentLinkedQueue<>();

    static List<String> ran(String run) {
        return RAN.stream().filter(entry -> entry.startsWith(run + ":")).map(entry -> entry.substring(run.length() + 1))
                .toList();
    }

    /** Exits PAUSE on the first call of its step in a run, GO after. */
    @Named("pausingBatchlet")
    @Dependent
    static class PausingBatchlet extends AbstractBatchlet {
        @Inject
        StepContext stepContext;

        @Inject
        jakarta.batch.runtime.context.JobContext jobContext;

        @Override
        public String process() {
            String run = operator().getParameters(jobContext.getExecutionId()).getProperty("run");
            boolean first = !ran(run).contains(stepContext.getStepName());
            RAN.add(run + ":" + stepContext.getStepName());
            return first ? "PAUSE" : "GO";
        }
    }

    /** Counts its calls in its persistent user data; fails, huge data or not, as its action says. */
    @Named("keepingBatchlet")
    @Dependent
    static class KeepingBatchlet extends AbstractBatchlet {
        @Inject
        StepContext stepContext;

        @Inject
        @BatchProperty
        String action;

        @Override
        public String process() {
            Integer calls = (Integer) stepContext.getPersistentUserData();
            FOUND.add(action + ":" + calls);
            stepContext.setPersistentUserData(calls == null ? 1 : calls + 1);
            if (action.startsWith("huge")) {
                stepContext.setPersistentUserData(new byte[70_000]);
            }
            if (action.endsWith("fail")) {
                throw new IllegalStateException("the keeping batchlet fails as asked");
            }
            return null;
        }
    }

    private static String freshRun() {
        return UUID.randomUUID().toString();
    }

    private static JobExecution restart(JobExecution stopped, String run) {
        return ended(operator().restart(stopped.getExecutionId(), properties("run", run)));
    }

    @Test
    void aStopWithoutRestartRestartsAtTheFirstStep() {
        String run = freshRun();
        JobExecution stopped = run("pause-to-start", properties("run", run));
        assertEquals(BatchStatus.STOPPED, stopped.getBatchStatus());
        assertEquals("PAUSED", stopped.getExitStatus());
        assertEquals(BatchStatus.COMPLETED, step(stopped.getExecutionId(), "first").getBatchStatus(),
                "the step completed; the job stopped on its exit status");
        JobExecution restarted = restart(stopped, run);
        assertEquals(BatchStatus.COMPLETED, restarted.getBatchStatus());
        assertEquals(List.of("first", "first", "second"), ran(run));
    }

    @Test
    void aRestartReachingTheStopOnACompletedStepsExitStatusStopsAgain() {
        String run = freshRun();
        JobExecution stopped = run("pause-for-good", properties("run", run));
        assertEquals(BatchStatus.STOPPED, stopped.getBatchStatus());
        JobExecution restarted = restart(stopped, run);
        assertEquals(BatchStatus.STOPPED, restarted.getBatchStatus(),
                "first completed (PAUSE) and does not allow a start if complete: its exit status stops the job");
        assertEquals(List.of("first"), ran(run));
    }

    @Test
    void aStopMayRestartAtTheStoppingStep() {
        String run = freshRun();
        JobExecution stopped = run("pause-at-itself", properties("run", run));
        assertEquals(BatchStatus.STOPPED, stopped.getBatchStatus());
        JobExecution restarted = restart(stopped, run);
        assertEquals(BatchStatus.COMPLETED, restarted.getBatchStatus());
        assertEquals(List.of("check", "check", "after"), ran(run));
    }

    @Test
    void aStopMayRestartAtAStepBeforeTheStoppingOne() {
        String run = freshRun();
        JobExecution stopped = run("pause-before", properties("run", run));
        assertEquals(BatchStatus.STOPPED, stopped.getBatchStatus());
        assertEquals("PAUSED", stopped.getExitStatus());
        JobExecution restarted = restart(stopped, run);
        assertEquals(BatchStatus.COMPLETED, restarted.getBatchStatus());
        assertEquals(List.of("first", "second", "first", "second"), ran(run));
    }

    @Test
    void persistentUserDataIsKeptWithAFailedStepAndGivenBackToItsRestart() {
        String run = freshRun();
        JobExecution failed = run("keeping", properties("action", run + "-fail"));
        assertEquals(BatchStatus.FAILED, failed.getBatchStatus());
        assertEquals(1, step(failed.getExecutionId(), "keep").getPersistentUserData(),
                "kept though the step failed");
        JobExecution restarted = ended(operator().restart(failed.getExecutionId(), properties("action", run)));
        assertEquals(BatchStatus.COMPLETED, restarted.getBatchStatus());
        assertEquals(List.of(run + "-fail:null", run + ":1"),
                FOUND.stream().filter(found -> found.startsWith(run)).toList(), "the restart got it back");
        assertEquals(2, step(restarted.getExecutionId(), "keep").getPersistentUserData());
    }

    @Test
    void aStepThatSetsNoPersistentUserDataHasNone() {
        JobExecution ended = run("pause-at-itself", properties("run", freshRun()));
        assertNull(step(ended.getExecutionId(), "check").getPersistentUserData());
    }

    @Test
    void persistentUserDataTooLargeToKeepFailsTheStep() {
        JobExecution failed = run("keeping", properties("action", "huge-" + freshRun()));
        assertEquals(BatchStatus.FAILED, failed.getBatchStatus());
        assertEquals(BatchStatus.FAILED, step(failed.getExecutionId(), "keep").getBatchStatus());
    }
}
