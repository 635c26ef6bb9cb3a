package io.durablebatch.jakarta.deployment.test.operator;

import static io.durablebatch.jakarta.deployment.test.operator.Executions.operator;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.properties;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import jakarta.batch.api.AbstractBatchlet;
import jakarta.batch.operations.JobOperator;
import jakarta.batch.operations.JobStartException;
import jakarta.batch.operations.NoSuchJobException;
import jakarta.batch.operations.NoSuchJobExecutionException;
import jakarta.batch.operations.NoSuchJobInstanceException;
import jakarta.batch.runtime.BatchStatus;
import jakarta.batch.runtime.JobExecution;
import jakarta.batch.runtime.JobInstance;
import jakarta.batch.runtime.Metric;
import jakarta.batch.runtime.StepExecution;
import jakarta.batch.runtime.context.JobContext;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** Every read of the Jakarta {@code JobOperator}, and its {@code NoSuch*} refusals. */
class OperatorReadsTest {

    private static final long NO_ID = Long.MAX_VALUE;

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Executions.class, DoneBatchlet.class)
                    .addAsResource(new StringAsset("""
                            <job id="report" xmlns="https://jakarta.ee/xml/ns/jakartaee" version="2.0">
                                <step id="gather" next="print"><batchlet ref="done"/></step>
                                <step id="print"><batchlet ref="done"/></step>
                            </job>
                            """), "META-INF/batch-jobs/report.xml")
                    .addAsResource(new StringAsset("""
                            <job id="neverStarted" xmlns="https://jakarta.ee/xml/ns/jakartaee" version="2.0">
                                <step id="only"><batchlet ref="done"/></step>
                            </job>
                            """), "META-INF/batch-jobs/never-started.xml"));

    /** Ends DONE, after asking the injected operator for its own execution, as an artifact may. */
    @Named("done")
    @Dependent
    static class DoneBatchlet extends AbstractBatchlet {
        @Inject
        JobOperator operator;

        @Inject
        JobContext job;

        @Override
        public String process() {
            return operator.getJobExecution(job.getExecutionId()).getBatchStatus() == BatchStatus.STARTED ? "DONE"
                    : "UNEXPECTED";
        }
    }

    @Inject
    JobOperator injected;

    @Test
    void theInjectedOperatorAndBatchRuntimesAreOneView() {
        JobExecution execution = run("report", properties("n", "2"));
        assertEquals(execution.getExecutionId(), injected.getJobExecution(execution.getExecutionId()).getExecutionId());
        assertEquals(operator().getJobNames(), injected.getJobNames());
    }

    @Test
    void everyStartIsANewInstanceListedNewestFirst() {
        int before = countOrZero("report");
        JobExecution first = run("report", properties("n", "1"));
        JobExecution second = run("report", properties("n", "1"));
        assertEquals(before + 2, operator().getJobInstanceCount("report"), "equal parameters, two instances");
        JobInstance firstInstance = operator().getJobInstance(first.getExecutionId());
        JobInstance secondInstance = operator().getJobInstance(second.getExecutionId());
        assertTrue(firstInstance.getInstanceId() != secondInstance.getInstanceId());
        assertEquals("report", secondInstance.getJobName());

        List<JobInstance> newest = operator().getJobInstances("report", 0, 2);
        assertEquals(List.of(secondInstance.getInstanceId(), firstInstance.getInstanceId()),
                newest.stream().map(JobInstance::getInstanceId).toList());
        assertEquals(List.of(firstInstance.getInstanceId()),
                operator().getJobInstances("report", 1, 1).stream().map(JobInstance::getInstanceId).toList());
        assertEquals(List.of(), operator().getJobInstances("report", 0, 0));
        assertTrue(operator().getJobNames().contains("report"));
        assertTrue(!operator().getJobNames().contains("never-started"), "a job without instances is not known");
    }

    @Test
    void anExecutionShowsItsParametersInstanceStepsAndMetrics() {
        JobExecution execution = run("report", properties("month", "2026-11", "format", "pdf"));
        long id = execution.getExecutionId();
        assertEquals(properties("month", "2026-11", "format", "pdf"), operator().getParameters(id));
        assertEquals(properties("month", "2026-11", "format", "pdf"), execution.getJobParameters());
        assertNotNull(execution.getCreateTime());
        assertNotNull(execution.getLastUpdatedTime());

        JobInstance instance = operator().getJobInstance(id);
        List<JobExecution> executions = operator().getJobExecutions(instance);
        assertEquals(List.of(id), executions.stream().map(JobExecution::getExecutionId).toList());
        assertEquals(BatchStatus.COMPLETED, executions.get(0).getBatchStatus());

        List<StepExecution> steps = operator().getStepExecutions(id);
        assertEquals(List.of("gather", "print"), steps.stream().map(StepExecution::getStepName).toList());
        StepExecution gather = steps.get(0);
        assertEquals(BatchStatus.COMPLETED, gather.getBatchStatus());
        assertEquals("DONE", gather.getExitStatus());
        assertNotNull(gather.getStartTime());
        assertNotNull(gather.getEndTime());
        Map<Metric.MetricType, Long> metrics = Arrays.stream(gather.getMetrics())
                .collect(Collectors.toMap(Metric::getType, Metric::getValue));
        assertEquals(8, metrics.size());
        assertEquals(1L, metrics.get(Metric.MetricType.COMMIT_COUNT), "a batchlet commits once");
        assertEquals(0L, metrics.get(Metric.MetricType.READ_COUNT));
        assertEquals(List.of(), operator().getRunningExecutions("report"));
    }

    @Test
    void unknownJobsAreRefusedWithNoSuchJobException() {
        assertThrows(NoSuchJobException.class, () -> operator().getJobInstanceCount("nope"));
        assertThrows(NoSuchJobException.class, () -> operator().getJobInstances("nope", 0, 1));
        assertThrows(NoSuchJobException.class, () -> operator().getRunningExecutions("nope"));
        assertThrows(NoSuchJobException.class, () -> operator().getJobInstanceCount("never-started"),
                "a job XML without instances is unknown to the repository");
        assertThrows(NoSuchJobException.class, () -> operator().getJobInstanceCount(null));
        assertThrows(JobStartException.class, () -> operator().start(null, null));
        JobStartException refused = assertThrows(JobStartException.class, () -> operator().start("nope", null));
        assertTrue(refused.getMessage().contains("META-INF/batch-jobs/nope.xml"), refused::getMessage);
    }

    @Test
    void unknownExecutionsAndInstancesAreRefusedWithNoSuchExceptions() {
        assertThrows(NoSuchJobExecutionException.class, () -> operator().getJobExecution(NO_ID));
        assertThrows(NoSuchJobExecutionException.class, () -> operator().getJobExecution(0));
        assertThrows(NoSuchJobExecutionException.class, () -> operator().getParameters(NO_ID));
        assertThrows(NoSuchJobExecutionException.class, () -> operator().getJobInstance(NO_ID));
        assertThrows(NoSuchJobExecutionException.class, () -> operator().getStepExecutions(NO_ID));
        assertThrows(NoSuchJobExecutionException.class, () -> operator().restart(NO_ID, null));
        assertThrows(NoSuchJobExecutionException.class, () -> operator().stop(NO_ID));
        assertThrows(NoSuchJobExecutionException.class, () -> operator().abandon(NO_ID));
        assertThrows(NoSuchJobInstanceException.class, () -> operator().getJobExecutions(new JobInstance() {
            @Override
            public long getInstanceId() {
                return NO_ID;
            }

            @Override
            public String getJobName() {
                return "report";
            }
        }));
        assertThrows(NoSuchJobInstanceException.class, () -> operator().getJobExecutions(null));
    }

    private static int countOrZero(String job) {
        try {
            return operator().getJobInstanceCount(job);
        } catch (NoSuchJobException e) {
            return 0;
        }
    }
}
