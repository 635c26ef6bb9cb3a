package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.deployment.test.kernel.KernelTestSupport.call;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.freshRun;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.rows;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.slowRange;
import static io.durablebatch.job.Steps.chunk;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.deployment.test.kernel.KernelTestSupport.RangeReader;
import io.durablebatch.deployment.test.kernel.KernelTestSupport.Row;
import io.durablebatch.deployment.test.kernel.KernelTestSupport.TargetWriter;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.job.ChunkStep;
import io.durablebatch.job.ExceptionFilter;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RetryLimitExceededException;
import io.durablebatch.job.SkipLimitExceededException;
import io.durablebatch.operator.JobParameters;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The skip, retry and time limits a chunk step gives each attempt, from its job parameters: they are
 * enforced as written ones are, and a value the step refuses fails the attempt before it reads.
 */
class AttemptChunkLimitsTest extends KernelTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, KernelTest.class,
                    KernelTestSupport.class, Jobs.class, Refused.class, Flaky.class));

    static class Refused extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Refused(String message) {
            super(message);
        }
    }

    static class Flaky extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Flaky(String message) {
            super(message);
        }
    }

    /** The flaky failures that fired, once per run and id: "run:id". */
    static final Set<String> FIRED = ConcurrentHashMap.newKeySet();

    /** Refuses ids 3 and 6 for good, or once ("flaky"), as the run's "fails" parameter says. */
    static Row process(Row row, String fails) {
        boolean failing = row.id() == 3 || row.id() == 6;
        if (failing && fails.equals("refused")) {
            throw new Refused("refused " + row.id());
        }
        if (failing && fails.equals("flaky") && FIRED.add(row.run() + ":" + row.id())) {
            throw new Flaky("flaky " + row.id());
        }
        return row;
    }

    @Singleton
    static class Jobs {
        @Inject
        AgroalDataSource dataSource;

        private ChunkStep.Builder<Row, Row> load(String fails) {
            return chunk("load", 10)
                    .reader(context -> new RangeReader(context.parameters().string("run"), 10))
                    .processor(row -> process(row, fails))
                    .writer(context -> new TargetWriter(dataSource));
        }

        @Produces
        JobDefinition attemptSkipLimited() {
            return Job.named("attemptSkipLimited")
                    .start(load("refused").skippable(ExceptionFilter.including(Refused.class))
                            .skipLimit(context -> (int) context.parameters().longValue("limit")).build())
                    .build();
        }

        @Produces
        JobDefinition attemptRetryLimited() {
            return Job.named("attemptRetryLimited")
                    .start(load("flaky").retryable(ExceptionFilter.including(Flaky.class))
                            .retryLimit(context -> (int) context.parameters().longValue("limit")).build())
                    .build();
        }

        @Produces
        JobDefinition attemptTimeLimited() {
            return Job.named("attemptTimeLimited")
                    .start(chunk("load", 1000)
                            .reader(context -> slowRange(context.parameters().string("run"), 20, Duration.ofMillis(40)))
                            .writer(context -> new TargetWriter(dataSource))
                            .timeLimit(context -> Duration.ofMillis(context.parameters().longValue("limit")))
                            .build())
                    .build();
        }

        @Produces
        JobDefinition attemptLimitThrows() {
            return Job.named("attemptLimitThrows")
                    .start(load("none").timeLimit(context -> {
                        throw new IllegalStateException("no time limit for run " + context.parameters().string("run"));
                    }).build())
                    .build();
        }
    }

    private JobExecution run(String job, String run, long limit) {
        return operator.runAndWait(job, JobParameters.of("run", run).with("limit", limit), call());
    }

    private StepExecution onlyStep(JobExecution execution) {
        return RepositoryTestSupport.tx(() -> repository.stepExecutions(execution.id())).get(0);
    }

    @Test
    void aSkipLimitOfTheParametersFailsTheStepOnTheSkipBeyondIt() throws SQLException {
        String tight = freshRun();
        JobExecution failed = run("attemptSkipLimited", tight, 1);
        assertEquals(ExecutionStatus.FAILED, failed.status());
        StepExecution step = onlyStep(failed);
        assertEquals(SkipLimitExceededException.class.getName(), step.failure().orElseThrow().type());
        assertTrue(step.failure().get().message().startsWith("step 'load' exceeded its skip limit of 1 skip(s) in all"),
                step.failure().get().message());
        assertEquals(0, rows(dataSource, tight), "the one chunk rolled back with the second skip");

        String enough = freshRun();
        JobExecution completed = run("attemptSkipLimited", enough, 2);
        assertEquals(ExecutionStatus.COMPLETED, completed.status());
        assertEquals(2, onlyStep(completed).counters().processSkipCount());
        assertEquals(8, rows(dataSource, enough));
    }

    @Test
    void aRetryLimitOfTheParametersFailsTheStepOnTheRetryBeyondIt() throws SQLException {
        String tight = freshRun();
        JobExecution failed = run("attemptRetryLimited", tight, 1);
        assertEquals(ExecutionStatus.FAILED, failed.status());
        StepExecution step = onlyStep(failed);
        assertEquals(RetryLimitExceededException.class.getName(), step.failure().orElseThrow().type());
        assertTrue(step.failure().get().message().startsWith("step 'load' exceeded its retry limit of 1: "),
                step.failure().get().message());

        String enough = freshRun();
        JobExecution completed = run("attemptRetryLimited", enough, 2);
        assertEquals(ExecutionStatus.COMPLETED, completed.status());
        assertEquals(10, rows(dataSource, enough), "both flaky items were retried and written");
    }

    @Test
    void aNegativeLimitFailsTheAttemptBeforeItReads() throws SQLException {
        String run = freshRun();
        JobExecution failed = run("attemptSkipLimited", run, -1);
        assertEquals(ExecutionStatus.FAILED, failed.status());
        StepExecution step = onlyStep(failed);
        assertEquals(IllegalArgumentException.class.getName(), step.failure().orElseThrow().type());
        assertEquals("skip limit of step 'load' must not be negative, got -1", step.failure().get().message());
        assertEquals(0, step.counters().readCount());
        assertEquals(0, rows(dataSource, run));
    }

    @Test
    void aTimeLimitOfTheParametersEndsChunksBeforeTheirCommitInterval() throws SQLException {
        String run = freshRun();
        JobExecution completed = run("attemptTimeLimited", run, 200);
        assertEquals(ExecutionStatus.COMPLETED, completed.status());
        StepCounters counters = onlyStep(completed).counters();
        // 20 reads of 40 ms in chunks of at most 200 ms: at least 4 chunks and the end (a slow machine makes more)
        assertTrue(counters.commitCount() >= 5, "commits: " + counters.commitCount());
        assertEquals(20, rows(dataSource, run));

        JobExecution refused = run("attemptTimeLimited", freshRun(), -5);
        assertEquals(ExecutionStatus.FAILED, refused.status());
        assertEquals("time limit of step 'load' must not be negative, got PT-0.005S",
                onlyStep(refused).failure().orElseThrow().message());
    }

    @Test
    void aLimitFunctionThatThrowsFailsTheAttemptWithItsException() throws SQLException {
        String run = freshRun();
        JobExecution failed = run("attemptLimitThrows", run, 0);
        assertEquals(ExecutionStatus.FAILED, failed.status());
        StepExecution step = onlyStep(failed);
        assertEquals(IllegalStateException.class.getName(), step.failure().orElseThrow().type());
        assertEquals("no time limit for run " + run, step.failure().get().message());
        assertEquals(0, rows(dataSource, run));
    }
}
