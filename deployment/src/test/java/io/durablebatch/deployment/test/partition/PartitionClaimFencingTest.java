package io.durablebatch.deployment.test.partition;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertRefused;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.deployment.test.partition.PartitionFixture.entries;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryFixtures;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.partition.StepPartition;
import io.durablebatch.repository.spi.KernelRepository;
import io.quarkus.test.QuarkusUnitTest;

/**
 * No partition is ever claimed under a parent that has stopped handing out work: a claim in flight
 * holds the parent's end off until it commits (so the parent sees it), and a claim behind the end is
 * refused. Settled by a row lock (claims share-lock the parent), not by timing.
 */
class PartitionClaimFencingTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp(PartitionFixture.class);

    @Inject
    KernelRepository repository;

    @Inject
    RepositoryFixtures given;

    @Test
    void theParentsEndWaitsForAClaimInFlightAndRefusesTheClaimsBehindIt() throws Exception {
        PartitionFixture job = PartitionFixture.start(given, "claim-fence");
        job.plan(entries(2));
        StepExecution parent = job.parent();
        StepExecution worker = job.worker();
        CountDownLatch claimed = new CountDownLatch(1);
        CountDownLatch commit = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            Future<Optional<StepPartition>> claim = threads.submit(() -> tx(() -> {
                Optional<StepPartition> partition = repository.claimNextStepPartition(parent.id(), worker.id());
                claimed.countDown();
                await(commit);
                return partition;
            }));
            assertTrue(claimed.await(10, TimeUnit.SECONDS));
            Future<StepExecution> closing = threads.submit(() -> tx(() -> repository.transitionStepExecution(
                    parent.id(), parent.version(), LifecycleTransition.to(ExecutionStatus.STOPPING, now()))));
            Thread.sleep(500);
            assertFalse(closing.isDone(), "the parent's end waits for the claim in flight");

            commit.countDown();
            assertTrue(claim.get(10, TimeUnit.SECONDS).isPresent());
            assertEquals(ExecutionStatus.STOPPING, closing.get(10, TimeUnit.SECONDS).status());
            assertEquals(1, job.currentPlan().stream().filter(p -> p.status() == ExecutionStatus.STARTED).count(),
                    "the parent sees the claim that got in first");
            StepExecution late = job.worker();
            assertRefused(RepositoryError.PARTITION_PARENT_NOT_ACTIVE,
                    () -> tx(() -> repository.claimNextStepPartition(parent.id(), late.id())));
        } finally {
            commit.countDown();
            threads.shutdownNow();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
