package io.durablebatch.jakarta.deployment.test.operator;

import static io.durablebatch.jakarta.deployment.test.operator.Executions.ended;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.operator;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.properties;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.run;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.step;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.stepNames;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.batch.api.AbstractBatchlet;
import jakarta.batch.api.BatchProperty;
import jakarta.batch.operations.JobExecutionAlreadyCompleteException;
import jakarta.batch.operations.JobExecutionIsRunningException;
import jakarta.batch.operations.JobExecutionNotMostRecentException;
import jakarta.batch.operations.JobExecutionNotRunningException;
import jakarta.batch.operations.JobRestartException;
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
 * Restart (of the most recent execution, with new parameters), stop (which calls the batchlet's
 * {@code stop()}) and abandon, with the refusals the specification names.
 */
class RestartStopAbandonTest {

    private static final String NS = "xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"2.0\"";

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar
                    .addClasses(Executions.class, CountingBatchlet.class, WaitingBatchlet.class)
                    .addAsResource(new StringAsset(
                            """
                                    <job id="flaky" %s>
                                        <step id="prepare" next="work"><batchlet ref="counting"/></step>
                                        <step id="work">
                                            <batchlet ref="counting">
                                                <properties><property name="fail" value="#{jobParameters['fail']}?:false;"/></properties>
                                            </batchlet>
                                        </step>
                                    </job>
                                    """
                                    .formatted(NS)),
                            "META-INF/batch-jobs/flaky.xml")
                    .addAsResource(new StringAsset("""
                            <job id="checked" %s>
                                <step id="check" allow-start-if-complete="true">
                                    <batchlet ref="counting">
                                        <properties><property name="exit" value="#{jobParameters['outcome']}"/></properties>
                                    </batchlet>
                                    <fail on="BAD"/>
                                    <end on="*"/>
                                </step>
                            </job>
                            """.formatted(NS)), "META-INF/batch-jobs/checked.xml")
                    .addAsResource(new StringAsset(
                            """
                                    <job id="limited" %s>
                                        <step id="once" start-limit="1">
                                            <batchlet ref="counting"><properties><property name="fail" value="true"/></properties></batchlet>
                                        </step>
                                    </job>
                                    """
                                    .formatted(NS)),
                            "META-INF/batch-jobs/limited.xml")
                    .addAsResource(new StringAsset(
                            """
                                    <job id="waiting" %s>
                                        <step id="wait" next="after">
                                            <batchlet ref="waiting">
                                                <properties><property name="release" value="#{jobParameters['release']}?:false;"/></properties>
                                            </batchlet>
                                        </step>
                                        <step id="after"><batchlet ref="counting"/></step>
                                    </job>
                                    """
                                    .formatted(NS)),
                            "META-INF/batch-jobs/waiting.xml")
                    .addAsResource(new StringAsset("""
                            <job id="unrestartable" restartable="false" %s>
                                <step id="only"><batchlet ref="counting">
                                    <properties><property name="fail" value="true"/></properties>
                                </batchlet></step>
                            </job>
                            """.formatted(NS)), "META-INF/batch-jobs/unrestartable.xml"));

    /** Calls per "run/step". */
    static final Map<String, AtomicInteger> CALLS = new ConcurrentHashMap<>();

    static int calls(String run, String step) {
        return CALLS.getOrDefault(run + "/" + step, new AtomicInteger()).get();
    }

    @Named("counting")
    @Dependent
    static class CountingBatchlet extends AbstractBatchlet {
        @Inject
        @BatchProperty
        String fail;

        @Inject
        @BatchProperty
        String exit;

        @Inject
        StepContext step;

        @Inject
        jakarta.batch.runtime.context.JobContext job;

        @Override
        public String process() {
            String run = operator().getParameters(job.getExecutionId()).getProperty("run");
            CALLS.computeIfAbsent(run + "/" + step.getStepName(), key -> new AtomicInteger()).incrementAndGet();
            if ("true".equals(fail)) {
                throw new IllegalStateException("asked to fail");
            }
            return exit;
        }
    }

    static volatile CountDownLatch waiting = new CountDownLatch(1);
    static final AtomicInteger STOP_CALLS = new AtomicInteger();
    static final AtomicReference<BatchStatus> STATUS_AFTER_STOP = new AtomicReference<>();

    /** Runs until {@code stop()} is called, unless released by its property. */
    @Named("waiting")
    @Dependent
    static class WaitingBatchlet extends AbstractBatchlet {
        private final CountDownLatch stopped = new CountDownLatch(1);

        @Inject
        @BatchProperty
        String release;

        @Inject
        StepContext step;

        @Override
        public String process() throws InterruptedException {
            waiting.countDown();
            if (!"true".equals(release) && !stopped.await(30, TimeUnit.SECONDS)) {
                return "NOT_STOPPED";
            }
            STATUS_AFTER_STOP.set(step.getBatchStatus());
            return "RELEASED";
        }

        @Override
        public void stop() {
            STOP_CALLS.incrementAndGet();
            stopped.countDown();
        }
    }

    @Test
    void aFailedExecutionRestartsFromTheFailedStepWithTheNewParameters() {
        JobExecution failed = run("flaky", properties("run", "flaky", "fail", "true"));
        assertEquals(BatchStatus.FAILED, failed.getBatchStatus());
        assertEquals(BatchStatus.FAILED, step(failed.getExecutionId(), "work").getBatchStatus());

        long restartId = operator().restart(failed.getExecutionId(), properties("run", "flaky"));
        JobExecution restarted = ended(restartId);
        assertEquals(BatchStatus.COMPLETED, restarted.getBatchStatus());
        assertEquals(List.of("work"), stepNames(restartId), "the completed step is not run again");
        assertEquals(1, calls("flaky", "prepare"));
        assertEquals(2, calls("flaky", "work"));
        assertEquals(properties("run", "flaky"), operator().getParameters(restartId),
                "the restart's parameters replace the first ones");
        assertEquals(operator().getJobInstance(failed.getExecutionId()).getInstanceId(),
                operator().getJobInstance(restartId).getInstanceId());

        assertThrows(JobExecutionAlreadyCompleteException.class, () -> operator().restart(restartId, properties()));
        assertThrows(JobExecutionNotMostRecentException.class,
                () -> operator().restart(failed.getExecutionId(), properties()));
        assertThrows(JobExecutionAlreadyCompleteException.class, () -> operator().abandon(restartId));
    }

    @Test
    void aFailTransitionFailsTheJobAndARestartRunsTheStepAgainWhenItMayStartIfComplete() {
        JobExecution failed = run("checked", properties("run", "checked", "outcome", "BAD"));
        assertEquals(BatchStatus.FAILED, failed.getBatchStatus());
        assertEquals("BAD", step(failed.getExecutionId(), "check").getExitStatus());
        JobExecution restarted = ended(operator().restart(failed.getExecutionId(),
                properties("run", "checked", "outcome", "GOOD")));
        assertEquals(BatchStatus.COMPLETED, restarted.getBatchStatus());
        assertEquals("GOOD", step(restarted.getExecutionId(), "check").getExitStatus());
        assertEquals(2, calls("checked", "check"));
    }

    @Test
    void aStepPastItsStartLimitDoesNotRunAgain() {
        JobExecution failed = run("limited", properties("run", "limited"));
        assertEquals(BatchStatus.FAILED, failed.getBatchStatus());
        JobExecution restarted = ended(operator().restart(failed.getExecutionId(), properties("run", "limited")));
        assertEquals(BatchStatus.FAILED, restarted.getBatchStatus());
        assertEquals(1, calls("limited", "once"), "start-limit=\"1\": the second attempt is refused");
    }

    @Test
    void aJobThatIsNotRestartableRefusesTheRestart() {
        JobExecution failed = run("unrestartable", properties("run", "unrestartable"));
        assertEquals(BatchStatus.FAILED, failed.getBatchStatus());
        assertThrows(JobRestartException.class, () -> operator().restart(failed.getExecutionId(), properties()));
    }

    @Test
    void stopCallsTheBatchletsStopAndTheExecutionEndsStoppedThenRestarts() throws InterruptedException {
        waiting = new CountDownLatch(1);
        int stopsBefore = STOP_CALLS.get();
        long id = operator().start("waiting", properties("run", "waiting"));
        assertTrue(waiting.await(30, TimeUnit.SECONDS), "the batchlet runs");
        assertTrue(operator().getRunningExecutions("waiting").contains(id));
        assertThrows(JobExecutionIsRunningException.class, () -> operator().abandon(id));

        operator().stop(id);
        JobExecution stopped = ended(id);
        assertEquals(BatchStatus.STOPPED, stopped.getBatchStatus());
        assertEquals(stopsBefore + 1, STOP_CALLS.get());
        assertEquals(BatchStatus.STOPPING, STATUS_AFTER_STOP.get(), "the contexts show the stop request");
        assertEquals(BatchStatus.STOPPED, step(id, "wait").getBatchStatus());
        assertEquals(List.of("wait"), stepNames(id), "the job stops before its next step");
        assertTrue(!operator().getRunningExecutions("waiting").contains(id));
        assertThrows(JobExecutionNotRunningException.class, () -> operator().stop(id));

        JobExecution restarted = ended(operator().restart(id, properties("run", "waiting", "release", "true")));
        assertEquals(BatchStatus.COMPLETED, restarted.getBatchStatus());
        assertEquals(List.of("wait", "after"), stepNames(restarted.getExecutionId()),
                "the stopped batchlet runs again");
    }

    @Test
    void aRunningExecutionsRestartIsRefusedNamingItsOwnersLeaseAndWhenItRunsOut() throws InterruptedException {
        waiting = new CountDownLatch(1);
        long id = operator().start("waiting", properties("run", "leased"));
        assertTrue(waiting.await(30, TimeUnit.SECONDS), "the batchlet runs");

        JobRestartException refusal = assertThrows(JobRestartException.class,
                () -> operator().restart(id, properties("run", "leased")));
        String message = refusal.getMessage();
        assertTrue(message.startsWith("execution " + id + " cannot be restarted: "), message);
        assertTrue(message.matches("(?s).* is STARTED: its owner \\S+ holds its lease until \\S+ on the database "
                + "clock \\(in \\d+ s\\).*"), message);
        assertTrue(message.contains("once the lease has run out and a sweeper has recovered it"), message);

        operator().stop(id);
        assertEquals(BatchStatus.STOPPED, ended(id).getBatchStatus());
    }

    @Test
    void anAbandonedExecutionIsNeverRestarted() throws InterruptedException {
        waiting = new CountDownLatch(1);
        long id = operator().start("waiting", properties("run", "abandoned"));
        assertTrue(waiting.await(30, TimeUnit.SECONDS));
        operator().stop(id);
        assertEquals(BatchStatus.STOPPED, ended(id).getBatchStatus());

        operator().abandon(id);
        assertEquals(BatchStatus.ABANDONED, operator().getJobExecution(id).getBatchStatus());
        assertThrows(JobRestartException.class, () -> operator().restart(id, properties()));
    }
}
