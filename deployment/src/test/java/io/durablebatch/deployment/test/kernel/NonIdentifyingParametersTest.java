package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.deployment.test.kernel.KernelTestSupport.call;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.freshRun;
import static io.durablebatch.job.Steps.tasklet;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.execution.ExecutionParameters;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.repository.RepositoryError;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Non-identifying parameters end to end: stored with the attempt, read by the step like the
 * identifying ones, outside the instance's identity, kept by a restart or replaced by it.
 */
class NonIdentifyingParametersTest extends KernelTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, KernelTest.class,
                    KernelTestSupport.class, Jobs.class));

    /** What each run of the tasklet saw: its "threads" parameter, and whether it was told to fail. */
    static final Queue<String> SEEN = new ConcurrentLinkedQueue<>();

    @Singleton
    static class Jobs {
        @Produces
        JobDefinition parameterized() {
            return Job.named("parameterized")
                    .start(tasklet("report", context -> {
                        JobParameters parameters = context.parameters();
                        boolean fail = parameters.booleanValue("fail");
                        String threads = parameters.get("threads").isPresent()
                                ? Long.toString(parameters.longValue("threads"))
                                : "-";
                        SEEN.add(parameters.string("run") + " threads=" + threads + " fail=" + fail);
                        if (fail) {
                            throw new IllegalStateException("told to fail");
                        }
                        return RepeatStatus.FINISHED;
                    }))
                    .build();
        }
    }

    @Test
    void theStepReadsThemAndTheAttemptStoresThemOutsideTheInstancesIdentity() {
        String run = freshRun();
        SEEN.clear();
        JobExecution failed = operator.runAndWait("parameterized",
                JobParameters.of("run", run).withNonIdentifying("threads", 4L).withNonIdentifying("fail", true), call());
        assertEquals(ExecutionStatus.FAILED, failed.status());
        assertEquals(ExecutionParameters.of(Map.of("threads", 4L, "fail", true)), failed.parameters());

        JobExecution completed = operator.runAndWait("parameterized",
                JobParameters.of("run", run).withNonIdentifying("fail", false), call());
        assertEquals(ExecutionStatus.COMPLETED, completed.status());
        assertEquals(failed.jobInstanceId(), completed.jobInstanceId(), "the same instance: they do not identify it");
        assertEquals(2, completed.attempt());
        assertEquals(List.of(run + " threads=4 fail=true", run + " threads=- fail=false"), List.copyOf(SEEN));
    }

    @Test
    void aRestartKeepsThemOrIsGivenOthers() {
        String run = freshRun();
        SEEN.clear();
        JobExecutionId first = operator.start("parameterized",
                JobParameters.of("run", run).withNonIdentifying("threads", 2L).withNonIdentifying("fail", true), call());
        assertEquals(ExecutionStatus.FAILED, operator.await(first, Duration.ofSeconds(30)).status());

        JobExecution kept = operator.await(operator.restart(first, call()), Duration.ofSeconds(30));
        assertEquals(ExecutionStatus.FAILED, kept.status(), "the restart kept fail=true");

        JobExecution given = operator.await(operator.restart(kept.id(),
                ExecutionParameters.of(Map.of("threads", 8L, "fail", false)), call()), Duration.ofSeconds(30));
        assertEquals(ExecutionStatus.COMPLETED, given.status());
        assertEquals(List.of(run + " threads=2 fail=true", run + " threads=2 fail=true", run + " threads=8 fail=false"),
                List.copyOf(SEEN));
    }

    @Test
    void theSameOperationWithOtherValuesConflicts() {
        String run = freshRun();
        OperatorCall once = OperatorCall.of("non-identifying-" + run, "test");
        JobExecutionId launched = operator.start("parameterized",
                JobParameters.of("run", run).withNonIdentifying("fail", false), once);
        assertEquals(launched, operator.start("parameterized",
                JobParameters.of("run", run).withNonIdentifying("fail", false), once), "a retried call is a replay");
        RepositoryTestSupport.assertRefused(RepositoryError.OPERATION_CONFLICT, () -> operator.start("parameterized",
                JobParameters.of("run", run).withNonIdentifying("fail", true), once));
        assertEquals(ExecutionStatus.COMPLETED, operator.await(launched, Duration.ofSeconds(30)).status());
    }
}
