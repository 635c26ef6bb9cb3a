package io.durablebatch.deployment.test.devservices;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * With Durable Batch's Dev Services off, no URL and no container runtime, nothing provides the
 * datasource: the start fails with Quarkus' one line that names the datasource and what to configure.
 */
class DevServicesDisabledTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = OrdersDatabase.withoutUrl()
            .overrideConfigKey("quarkus.durable-batch.devservices.enabled", "false")
            .assertException(failure -> {
                Throwable cause = failure;
                while (cause.getCause() != null) {
                    cause = cause.getCause();
                }
                assertEquals("Please configure the datasource URL for datasource orders or ensure the Docker daemon is up"
                        + " and running.", cause.getMessage(), "Quarkus' own Dev Service explains it");
            });

    @Test
    void theApplicationDoesNotStart() {
        Assertions.fail("startup must fail");
    }
}
