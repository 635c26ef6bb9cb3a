package io.durablebatch.deployment.test.lease;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertCausedBy;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * A statement timeout as long as the lease would let a renewal stuck behind a lock outwait the lease
 * it renews: the start is refused, naming both settings.
 */
class StatementTimeoutNotBelowLeaseTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp()
            .overrideConfigKey("quarkus.durable-batch.lease.duration", "10s")
            .overrideConfigKey("quarkus.durable-batch.statements.timeout", "10s")
            .assertException(failure -> assertCausedBy(failure, "quarkus.durable-batch.statements.timeout (10 s",
                    "must be below quarkus.durable-batch.lease.duration (PT10S)"));

    @Test
    void theApplicationDoesNotStart() {
        Assertions.fail("startup must fail");
    }
}
