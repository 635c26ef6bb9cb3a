package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.deployment.test.kernel.KernelTestSupport.call;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.freshRun;
import static io.durablebatch.job.Steps.tasklet;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobName;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.spi.KernelRepository;
import io.quarkus.test.QuarkusUnitTest;

/** Eight threads launching the same instance at once: one execution, seven typed refusals. */
class ConcurrentLaunchTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, KernelTestSupport.class, Jobs.class));

    static final CountDownLatch RELEASE = new CountDownLatch(1);

    @Singleton
    static class Jobs {
        @Produces
        JobDefinition held() {
            return Job.named("held").start(tasklet("wait", context -> {
                RELEASE.await(1, TimeUnit.MINUTES);
                return RepeatStatus.FINISHED;
            })).build();
        }
    }

    @Inject
    JobOperator operator;

    @Inject
    KernelRepository repository;

    @Test
    void eightLaunchersOfOneInstanceGetOneExecutionAndSevenRefusals() throws Exception {
        String run = freshRun();
        int threads = 8;
        CyclicBarrier together = new CyclicBarrier(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<JobExecutionId>> launches = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            launches.add(pool.submit(() -> {
                together.await();
                return operator.start("held", KernelTestSupport.run(run), call());
            }));
        }
        List<JobExecutionId> started = new ArrayList<>();
        List<RepositoryError> refusals = new ArrayList<>();
        for (Future<JobExecutionId> launch : launches) {
            try {
                started.add(launch.get(1, TimeUnit.MINUTES));
            } catch (java.util.concurrent.ExecutionException e) {
                refusals.add(((RepositoryException) e.getCause()).error());
            }
        }
        pool.shutdown();
        assertEquals(1, started.size(), "exactly one launch wins");
        assertEquals(List.of(RepositoryError.EXECUTION_ACTIVE, RepositoryError.EXECUTION_ACTIVE,
                RepositoryError.EXECUTION_ACTIVE, RepositoryError.EXECUTION_ACTIVE, RepositoryError.EXECUTION_ACTIVE,
                RepositoryError.EXECUTION_ACTIVE, RepositoryError.EXECUTION_ACTIVE), refusals);
        RELEASE.countDown();
        JobExecution execution = operator.await(started.get(0), Duration.ofMinutes(1));
        assertEquals(ExecutionStatus.COMPLETED, execution.status());
        List<JobExecution> all = RepositoryTestSupport.tx(() -> repository.jobExecutions(
                repository.findJobInstance(KernelTestSupport.run(run).keyFor(JobName.of("held"))).orElseThrow().id()));
        assertEquals(1, all.size(), "the instance has exactly one execution");
        RepositoryTestSupport.assertRefused(RepositoryError.INSTANCE_COMPLETE,
                () -> operator.start("held", KernelTestSupport.run(run), call()));
    }
}
