package io.durablebatch.deployment.test.partition;

import static io.durablebatch.deployment.test.partition.PartitionFixture.entries;
import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.InstanceState;
import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.deployment.test.RunningJobs;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.RepositoryError;
import io.quarkus.test.QuarkusUnitTest;

/** {@code quarkus.durable-batch.partitions.max-plan-size} bounds every plan. */
class PartitionPlanBoundConfigTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, RunningJobs.class,
                    InstanceState.class, PartitionFixture.class))
            .overrideConfigKey("quarkus.durable-batch.partitions.max-plan-size", "3");

    @Inject
    JobRepository repository;

    @Test
    void aPlanLargerThanTheConfiguredBoundIsRefusedAndOneAtTheBoundIsAccepted() {
        PartitionFixture job = PartitionFixture.start(repository, "plan-configured-bound");
        InstanceState.assertRefusedUnchanged(job.instance(), RepositoryError.PARTITION_PLAN_TOO_LARGE,
                () -> repository.createStepPartitionPlan(job.parent().id(), entries(4)));
        assertEquals(3, job.plan(entries(3)).size());
    }
}
