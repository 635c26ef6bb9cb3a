package io.durablebatch.deployment.test.lease;

import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.job.Steps.tasklet;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.job.RunningExecutions;
import io.quarkus.test.QuarkusUnitTest;

/** Shutdown ends every execution of the process: running ones at their next chunk, waiting ones at once. */
class ShutdownLeavesNothingStartingTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RepositoryTestSupport.repositoryApp(Jobs.class)
            .overrideConfigKey("quarkus.durable-batch.executor.max-concurrency", "1");

    static class Jobs {
        @Produces
        JobDefinition stubborn() {
            return Job.named("stubborn")
                    .start(tasklet("sleep", context -> {
                        Thread.sleep(3000);
                        return RepeatStatus.FINISHED;
                    }))
                    .build();
        }

        @Produces
        JobDefinition ticking() {
            return Job.named("ticking")
                    .start(tasklet("tick", context -> {
                        Thread.sleep(20);
                        return RepeatStatus.CONTINUABLE;
                    }))
                    .build();
        }
    }

    @Inject
    JobOperator operator;

    @Inject
    KernelRepository repository;

    @Inject
    RunningExecutions running;

    @Test
    void executionsWaitingForAThreadEndStoppedNotStarting() throws Exception {
        // one thread: a stubborn execution holds it past the shutdown timeout, two wait for it, STARTING
        JobExecutionId stubborn = launch("stubborn");
        List<JobExecutionId> waiting = List.of(launch("ticking"), launch("ticking"));
        Thread.sleep(200);
        assertEquals(List.of(stubborn), running.stopAll(Duration.ofSeconds(1)));
        for (JobExecutionId id : waiting) {
            assertEquals(ExecutionStatus.STOPPED, tx(() -> repository.getJobExecution(id)).orElseThrow().status(),
                    "a waiting execution ends STOPPED when its process shuts down");
        }
        operator.await(stubborn, Duration.ofSeconds(30));
    }

    JobExecutionId launch(String job) {
        return operator.start(job, JobParameters.of("run", UUID.randomUUID().toString()), OperatorCall.by("test"));
    }
}
