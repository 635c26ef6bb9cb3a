package io.durablebatch.deployment.test.partition;

import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.partition.PartitionFixture.entries;
import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryFixtures;
import io.durablebatch.deployment.test.StoredState;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.spi.KernelRepository;
import io.quarkus.test.QuarkusUnitTest;

/** {@code quarkus.durable-batch.partitions.max-plan-size} bounds every plan. */
class PartitionPlanBoundConfigTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp(PartitionFixture.class)
            .overrideConfigKey("quarkus.durable-batch.partitions.max-plan-size", "3");

    @Inject
    KernelRepository repository;

    @Inject
    RepositoryFixtures given;

    @Inject
    StoredState state;

    @Test
    void aPlanLargerThanTheConfiguredBoundIsRefusedAndOneAtTheBoundIsAccepted() {
        PartitionFixture job = PartitionFixture.start(given, "plan-configured-bound");
        state.assertRefusedChangingNothing(job.instance(), RepositoryError.PARTITION_PLAN_TOO_LARGE,
                () -> repository.createStepPartitionPlan(job.parent().id(), entries(4)));
        assertEquals(3, job.plan(entries(3)).size());
    }
}
